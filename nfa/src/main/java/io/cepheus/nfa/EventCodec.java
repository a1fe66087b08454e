package io.cepheus.nfa;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Writes and reads events for snapshots. Implementations must read back exactly what they wrote.
 *
 * @param <T> the event type
 */
public interface EventCodec<T> {

    /**
     * @param event the event
     * @param out   where to write it
     * @throws IOException if writing fails
     */
    void write(T event, DataOutput out) throws IOException;

    /**
     * @param in where to read from
     * @return the event
     * @throws IOException if reading fails or the data is not an event this codec wrote
     */
    T read(DataInput in) throws IOException;
}

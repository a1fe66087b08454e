package io.cepheus.runtime.window;

import io.cepheus.nfa.EventCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** The codecs of the built-in triggers' states, for snapshots. Stateless. */
final class TriggerCodecs {

    /** A boxed long (the continuous triggers' next firing time). */
    static final EventCodec<Long> LONG = new EventCodec<>() {
        @Override
        public void write(Long value, DataOutput out) throws IOException {
            out.writeLong(value);
        }

        @Override
        public Long read(DataInput in) throws IOException {
            return in.readLong();
        }
    };

    /** A one-long mutable cell (the count trigger's count). */
    static final EventCodec<long[]> LONG_CELL = new EventCodec<>() {
        @Override
        public void write(long[] cell, DataOutput out) throws IOException {
            out.writeLong(cell[0]);
        }

        @Override
        public long[] read(DataInput in) throws IOException {
            return new long[] {in.readLong()};
        }
    };

    private TriggerCodecs() {
    }
}

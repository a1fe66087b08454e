package io.cepheus.kafka;

import java.util.Objects;

/**
 * An input record whose timestamp was not after the task's watermark when it arrived: the event-time patterns never
 * see it (patterns in processing time still do).
 *
 * @param event     the record's value
 * @param watermark the watermark it missed
 * @param <V>       the input's value type
 */
public record LateEvent<V>(V event, long watermark) implements CepOutput<V> {
    /**
     * @param event     the record's value
     * @param watermark the watermark it missed
     */
    public LateEvent {
        Objects.requireNonNull(event, "event");
    }
}

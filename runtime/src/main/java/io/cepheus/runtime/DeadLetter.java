package io.cepheus.runtime;

import java.util.Objects;

/**
 * What user code threw on, as a record of the dead-letter side output ({@link PatternStream#sideOutputDeadLetters},
 * {@link io.cepheus.runtime.window.WindowedStream#sideOutputDeadLetters}): the same as a {@link DeadLetterHandler} receives, in one value.
 *
 * @param key       the key
 * @param value     the input event a condition or function threw on (it was not applied), or the output (a
 *                  {@code Match}, a window result) that the stream's own handler threw on
 * @param timestamp the event's time, or the output's record timestamp
 * @param error     what was thrown
 */
public record DeadLetter(Object key, Object value, long timestamp, RuntimeException error) {

    /**
     * Validates the record.
     *
     * @param key       the key
     * @param value     the input event a condition or function threw on (it was not applied), or the output (a {@code
     *                  Match}, a window result) that the stream's own handler threw on
     * @param timestamp the event's time, or the output's record timestamp
     * @param error     what was thrown
     */
    public DeadLetter {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(error, "error");
    }

    /**
     * @param id the side output's name
     * @return a tag for dead letters
     */
    public static OutputTag<DeadLetter> tag(String id) {
        return OutputTag.of(id, DeadLetter.class);
    }
}

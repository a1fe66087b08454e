package io.cepheus.pattern;

import java.util.List;

/**
 * A {@link Condition.Context} with no partial match and fixed times, so conditions can be tested without an
 * NFA. Iterative conditions under test read {@link #timestamp()} to prove the context reaches them.
 *
 * @param timestamp      the event time reported to conditions
 * @param processingTime the processing time reported to conditions
 * @param <T>            the event type
 */
record FixedContext<T>(long timestamp, long processingTime) implements Condition.Context<T> {

    static <T> FixedContext<T> at(long timestamp) {
        return new FixedContext<>(timestamp, 0L);
    }

    @Override
    public List<T> eventsForPattern(String stage) {
        return List.of();
    }

    @Override
    public long currentProcessingTime() {
        return processingTime;
    }
}

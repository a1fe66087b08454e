package io.cepheus.runtime.time;

/**
 * Extracts an event's event-time timestamp, in milliseconds (by convention since the Unix epoch), as Flink's
 * {@code TimestampAssigner}.
 *
 * <p>Called on the thread that ingests the event, once per event; it should be a cheap, pure function of the
 * event. An assigner is shared by every thread of an engine, so it must not keep mutable state.
 *
 * <pre>{@code
 * TimestampAssigner<Trade> byTradeTime = (trade, recordTimestamp) -> trade.epochMillis();
 * }</pre>
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface TimestampAssigner<T> {

    /** The record timestamp passed when the event came with none, as in Flink. */
    long NO_TIMESTAMP = Long.MIN_VALUE;

    /**
     * @param event           the event
     * @param recordTimestamp the timestamp the event was pushed with, or {@link #NO_TIMESTAMP} if none
     * @return the event's timestamp in milliseconds
     */
    long extractTimestamp(T event, long recordTimestamp);
}

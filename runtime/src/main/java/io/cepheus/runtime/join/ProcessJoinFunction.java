package io.cepheus.runtime.join;

import io.cepheus.runtime.Collector;
import io.cepheus.runtime.OutputTag;

/**
 * Handles each pair of an interval join, like Flink's {@code ProcessJoinFunction}: a left and a right element
 * of the same key whose timestamps satisfy the join's bounds. With an outer join, an element that found no
 * partner by the time its interval closed comes here once with {@code null} for the missing side. Runs on the
 * worker thread of the key's shard.
 *
 * @param <L>   the left elements' type
 * @param <R>   the right elements' type
 * @param <OUT> the results' type
 */
@FunctionalInterface
public interface ProcessJoinFunction<L, R, OUT> {

    /**
     * @param left  the left element, or {@code null} for an unmatched right element of a right/full outer join
     * @param right the right element, or {@code null} for an unmatched left element of a left/full outer join
     * @param ctx   key, timestamps and side outputs; valid only during this call
     * @param out   receives the results of this pair (any number)
     */
    void processElement(L left, R right, Context ctx, Collector<OUT> out);

    /** What a join function may read and emit while it handles one pair. */
    interface Context {
        /** @return the pair's key */
        Object key();

        /** @return the left element's event time, {@code Long.MIN_VALUE} if there is no left element */
        long leftTimestamp();

        /** @return the right element's event time, {@code Long.MIN_VALUE} if there is no right element */
        long rightTimestamp();

        /**
         * @return the result's timestamp: {@code max(leftTimestamp, rightTimestamp)} for a pair; for an
         *         unmatched element the latest timestamp a partner could have had made, i.e. the larger of its
         *         own timestamp and the end of its interval
         */
        long timestamp();

        /** @return the join's current watermark (the minimum of both inputs') */
        long currentWatermark();

        /** @return the engine clock's processing time */
        long currentProcessingTime();

        /**
         * Emits a record to a side output registered with
         * {@link io.cepheus.runtime.join.IntervalJoinStream#sideOutput(OutputTag, io.cepheus.runtime.SideOutputHandler)}.
         *
         * @param tag   the side output
         * @param value the record
         * @param <X>   its type
         * @throws IllegalArgumentException if no handler is registered for the tag (never a silent drop)
         */
        <X> void output(OutputTag<X> tag, X value);
    }
}

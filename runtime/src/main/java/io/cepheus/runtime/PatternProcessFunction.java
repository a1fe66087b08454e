package io.cepheus.runtime;

import io.cepheus.nfa.Match;

/**
 * Handles each match with access to time and side outputs, like Flink's {@code PatternProcessFunction}. Runs
 * on the worker thread of the key's shard.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface PatternProcessFunction<T> {

    /**
     * @param key   the key the match belongs to
     * @param match the events per stage
     * @param ctx   time and side outputs; valid only during this call
     */
    void processMatch(Object key, Match<T> match, Context ctx);

    /** What a process function may read and emit while it handles one match. */
    interface Context {
        /** @return the match's record time (see {@link MatchHandler#onMatch}) */
        long timestamp();

        /** @return the shard's current watermark */
        long currentWatermark();

        /** @return the engine clock's processing time */
        long currentProcessingTime();

        /**
         * Emits a record to a side output registered on the pattern stream with
         * {@link PatternStream#sideOutput(OutputTag, SideOutputHandler)}.
         *
         * @param tag   the side output
         * @param value the record
         * @param <X>   its type
         * @throws IllegalArgumentException if no handler is registered for the tag (never a silent drop)
         */
        <X> void output(OutputTag<X> tag, X value);
    }
}

package io.cepheus.runtime.internal.shard;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.PatternMetrics;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * What a {@link CepShard} runs: a keyed operator (CEP pattern, window, join) that sees every event of the
 * shard, shares the shard's key dictionary and timer service, and is driven by the shard's watermark.
 *
 * <p>A watermark reaches the operators in three steps, so that operators sharing one timer service see a
 * consistent time: {@link #beginWatermark} on every operator (release what the watermark allows), then the
 * shard fires the due event-time timers once, each to the operator named in its namespace
 * ({@link TimerNamespace}), then {@link #endWatermark()} on every operator.
 *
 * <p>Owned by the shard's thread, like everything on the shard.
 *
 * @param <T> the event type
 */
public interface ShardOperator<T> {

    /** Decides whether a key that this operator no longer needs can be forgotten by the shard. */
    @FunctionalInterface
    interface KeyRelease {
        /** Called on the shard thread when the operator holds nothing more for the key id. */
        void idle(int keyId);

        /**
         * As {@link #idle}, from an operator that has just found its own {@link ShardOperator#holds} false for the
         * key: the shard need not ask it again (with one operator on the shard, it asks none).
         */
        default void idleChecked(int keyId) {
            idle(keyId);
        }

        /**
         * The release of an operator alone on its shard (until the shard sets its own): forget the key once no
         * timer is pending for it.
         */
        static KeyRelease unlessTimersPending(io.cepheus.runtime.internal.shard.KeyDictionary keys,
                io.cepheus.runtime.internal.timer.TimerService timers) {
            return id -> {
                if (!timers.hasTimers(id)) {
                    keys.release(id);
                }
            };
        }
    }

    /** @return the operator's position on the shard, also the operator part of its timers' namespaces */
    int operatorId();

    /**
     * One event of the shard (every operator sees every event; one that does not want it ignores it).
     *
     * @param key       the event's key
     * @param event     the event
     * @param timestamp its event time
     */
    void processElement(Object key, T event, long timestamp);

    /**
     * First step of a watermark.
     *
     * @return false if it does not advance this operator
     */
    boolean beginWatermark(long watermark);

    /** One of this operator's event-time timers fired (namespace as registered). */
    void onTimer(int keyId, long namespace, long timestamp);

    /** One of this operator's processing-time timers fired; {@code now} is the current processing time. */
    void onProcessingTimer(int keyId, long namespace, long timestamp, long now);

    /** Last step of a watermark: settle what the watermark and its timers changed. */
    void endWatermark();

    /** @return whether this operator holds anything for the key id */
    boolean holds(int keyId);

    /** Sets how idle keys are released (setup, before events flow). */
    void keyRelease(KeyRelease release);

    /** End of a batch of records: publish counters for readers on other threads. Default: nothing. */
    default void endOfBatch() {
    }

    /** @return elements dropped as late so far */
    default long lateEvents() {
        return 0;
    }

    /** @return elements a user function threw on and that went to the dead letters, so far */
    default long deadLetters() {
        return 0;
    }

    /** @return CEP matches emitted so far (0 for other operators) */
    default long matches() {
        return 0;
    }

    /** @return CEP timeouts so far (0 for other operators) */
    default long timeouts() {
        return 0;
    }

    /** @return CEP partial matches dropped at a key's bound so far (0 for other operators) */
    default long rejectedPartialMatches() {
        return 0;
    }

    /**
     * @return a pattern's counters as published at the end of the shard's latest batch, for readers on any thread;
     *         null for operators that are not patterns
     */
    default PatternMetrics publishedPatternMetrics() {
        return null;
    }

    /** @return CEP partial matches alive (0 for other operators) */
    default long partialMatches() {
        return 0;
    }

    /** @return elements held waiting for time to pass (reorder buffers, window contents, join buffers) */
    default long bufferedEvents() {
        return 0;
    }

    /** @return CEP shared-buffer entries (0 for other operators) */
    default long bufferedEntries() {
        return 0;
    }

    /** Writes this operator's state for a snapshot taken between batches. */
    void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keys) throws IOException;

    /** Restores what {@link #writeState} wrote into this fresh operator. */
    void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keys) throws IOException;

    /**
     * Restores what {@link #writeState} wrote on one shard of an engine with another number of shards: as
     * {@link #readState}, but only the keys {@code scope} keeps, with counters added up as it says. Called once per
     * part of the snapshot, on the same operator.
     *
     * @throws IOException if this operator cannot be restored into another number of shards, or as readState
     */
    default void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keys, RestoreScope scope)
            throws IOException {
        if (scope.exact()) {
            readState(in, events, keys);
            return;
        }
        throw new IOException("operator " + operatorId() + " restores only into as many shards as it was written from");
    }

    /**
     * Completes a restore into another number of shards once every part was read (an operator that merges what the
     * parts hold does it here).
     */
    default void finishRestore(EventCodec<T> events, EventCodec<Object> keys, RestoreScope scope) throws IOException {
    }

}

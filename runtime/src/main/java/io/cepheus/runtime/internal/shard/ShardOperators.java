package io.cepheus.runtime.internal.shard;

import io.cepheus.runtime.internal.cep.SharedEventBuffer;
import io.cepheus.runtime.internal.timer.TimerHandler;
import io.cepheus.runtime.internal.timer.TimerService;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operators of one shard and what they share: the key dictionary, the timer service and the patterns' event-time
 * buffers. It applies events, watermarks and processing time to the operators in the order every host of a shard
 * must keep ({@link ShardOperator}: a watermark in three steps, each fired timer to the operator its namespace
 * names), and forgets a key only when no operator holds anything for it and no timer is pending. The engine's
 * {@link CepShard} feeds it from its inbox; a host that drives a shard from its own loop (a Kafka Streams task)
 * feeds it directly.
 *
 * <p>Owned by the shard's thread, like the operators.
 *
 * @param <T> the event type
 */
public final class ShardOperators<T> {

    private final KeyDictionary keys = new KeyDictionary();
    private final TimerService timers = new TimerService();
    private final List<ShardOperator<T>> operators = new ArrayList<>();
    /** The event-time buffers of the shard's patterns, one per tie-breaker (identity). */
    private final Map<Object, SharedEventBuffer<T>> patternBuffers = new IdentityHashMap<>();
    private final TimerHandler timerDispatch = (key, namespace, timestamp) ->
            operators.get(TimerNamespace.operatorOf(namespace)).onTimer(key, namespace, timestamp);
    private final TimerHandler processingTimeDispatch = (key, namespace, timestamp) ->
            operators.get(TimerNamespace.operatorOf(namespace)).onProcessingTimer(key, namespace, timestamp,
                    timers.currentProcessingTime());

    /** @return the key dictionary the operators share */
    public KeyDictionary keys() {
        return keys;
    }

    /** @return the timer service the operators share */
    public TimerService timers() {
        return timers;
    }

    /**
     * @param tieBreaker how the patterns order events of equal timestamp (null: arrival order only)
     * @return the event-time buffer the shard's patterns with this tie-breaker share (setup)
     */
    public SharedEventBuffer<T> patternBuffer(Comparator<? super T> tieBreaker) {
        return patternBuffers.computeIfAbsent(tieBreaker, k -> new SharedEventBuffer<>(tieBreaker));
    }

    /** @return the patterns' event-time buffers */
    public Collection<SharedEventBuffer<T>> patternBuffers() {
        return patternBuffers.values();
    }

    /**
     * Registers an operator (setup, before events flow). Its id must equal its position (0, 1, 2 ...): each fired
     * timer goes to the operator whose id is the timer's namespace.
     */
    public void add(ShardOperator<T> operator) {
        if (operator.operatorId() != operators.size()) {
            throw new IllegalArgumentException("operator id " + operator.operatorId() + " must be "
                    + operators.size() + ", its position on the shard");
        }
        operators.add(operator);
        operator.keyRelease(new OperatorRelease(operator.operatorId()));
    }

    /** An operator's release: it names the operator, so that {@link KeyRelease#idleChecked} skips asking it. */
    private final class OperatorRelease implements ShardOperator.KeyRelease {
        private final int operator;

        OperatorRelease(int operator) {
            this.operator = operator;
        }

        @Override
        public void idle(int keyId) {
            releaseIfIdle(keyId, -1);
        }

        @Override
        public void idleChecked(int keyId) {
            releaseIfIdle(keyId, operator);
        }
    }

    /**
     * A key id is forgotten only when no operator holds anything for it and no timer is pending.
     *
     * @param checked the operator that found it holds nothing for the key just now, or -1
     */
    private void releaseIfIdle(int keyId, int checked) {
        if (timers.hasTimers(keyId)) {
            return;
        }
        for (int i = 0; i < operators.size(); i++) {
            if (i != checked && operators.get(i).holds(keyId)) {
                return;
            }
        }
        keys.release(keyId);
    }

    /** @return the operators, in id order */
    public List<ShardOperator<T>> all() {
        return operators;
    }

    /** @return the operator with id {@code operatorId} */
    public ShardOperator<T> get(int operatorId) {
        return operators.get(operatorId);
    }

    /** @return how many operators there are */
    public int size() {
        return operators.size();
    }

    /** One event, to every operator. */
    public void processElement(Object key, T event, long timestamp) {
        for (int i = 0; i < operators.size(); i++) {
            operators.get(i).processElement(key, event, timestamp);
        }
    }

    /**
     * A watermark after the current one, to every operator: each releases its events first, then the shared timers
     * fire once, each to its operator, then each settles.
     */
    public void advanceWatermark(long watermark) {
        for (int i = 0; i < operators.size(); i++) {
            operators.get(i).beginWatermark(watermark);
        }
        timers.advanceWatermark(watermark, timerDispatch);
        for (int i = 0; i < operators.size(); i++) {
            operators.get(i).endWatermark();
        }
    }

    /**
     * Sets the timers' event time to a restored watermark (nothing registered yet: nothing fires).
     */
    public void restoreWatermark(long watermark) {
        timers.advanceWatermark(watermark, timerDispatch);
    }

    /** Fires the processing-time timers due at {@code now}. @return how many fired */
    public int advanceProcessingTime(long now) {
        return timers.advanceProcessingTime(now, processingTimeDispatch);
    }
}

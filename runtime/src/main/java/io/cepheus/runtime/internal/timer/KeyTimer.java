package io.cepheus.runtime.internal.timer;

import java.util.Arrays;

/**
 * One timer per key for one operator, in one time domain: where each key's timer stands in the shard's
 * {@link TimerService}, and moving it. Operators that need a key back at a single next moment (a CEP key's
 * next expiry, a join key's next drop time) keep their timers here instead of repeating the bookkeeping.
 *
 * <p>Owned by the shard's thread, like the timer service it writes to.
 */
public final class KeyTimer {

    /** A key without a timer. */
    public static final long NONE = Long.MIN_VALUE;

    private final TimerService timers;
    private final long namespace;
    private final boolean eventTime;
    private long[] at = new long[64];

    /**
     * @param timers    the shard's timer service
     * @param namespace the operator's timer namespace
     * @param eventTime event-time timers if true, processing-time timers otherwise
     */
    public KeyTimer(TimerService timers, long namespace, boolean eventTime) {
        this.timers = timers;
        this.namespace = namespace;
        this.eventTime = eventTime;
        Arrays.fill(at, NONE);
    }

    /** @return the key's timer, or {@link #NONE} */
    public long at(int keyId) {
        return keyId < at.length ? at[keyId] : NONE;
    }

    /**
     * Puts the key's timer at {@code time} (deleting the one it had), or removes it for {@link #NONE}.
     *
     * @return whether anything changed
     */
    public boolean moveTo(int keyId, long time) {
        grow(keyId);
        long current = at[keyId];
        if (current == time) {
            return false;
        }
        if (current != NONE) {
            if (eventTime) {
                timers.deleteEventTimeTimer(keyId, namespace, current);
            } else {
                timers.deleteProcessingTimeTimer(keyId, namespace, current);
            }
        }
        if (time != NONE) {
            if (eventTime) {
                timers.registerEventTimeTimer(keyId, namespace, time);
            } else {
                timers.registerProcessingTimeTimer(keyId, namespace, time);
            }
        }
        at[keyId] = time;
        return true;
    }

    /**
     * A timer of this operator fired: forget it if it is the key's current one.
     *
     * @return true if it was the key's current timer, false for a stale one (moved since it was set)
     */
    public boolean fired(int keyId, long timestamp) {
        if (keyId >= at.length || at[keyId] != timestamp) {
            return false;
        }
        at[keyId] = NONE;
        return true;
    }

    private void grow(int keyId) {
        if (keyId >= at.length) {
            int old = at.length;
            at = Arrays.copyOf(at, Math.max(keyId + 1, old * 2));
            Arrays.fill(at, old, at.length, NONE);
        }
    }
}

package io.cepheus.nfa.internal;

/**
 * When partial matches expire: a partial match times out once time reaches its start plus the pattern's window
 * ({@code within}), or its previous event plus its stage's gap ({@code within} with PREVIOUS_AND_CURRENT),
 * whichever comes first. A partial match still in the start state never expires.
 *
 * <p>Keys keep the earliest expiry of their partial matches ({@link KeyState#expiresAt}), so that advancing a key
 * to an earlier time costs one comparison. Sums saturate at {@code Long.MAX_VALUE}, so negative event times and a
 * final watermark of {@code Long.MAX_VALUE} cannot overflow.
 *
 * <p>Immutable; shared by the engine's thread only because the engine holds it.
 */
final class ExpiryTimes {

    private final int startState;
    private final long window;
    private final long[] stateGap;
    private final boolean anyGap;
    /** Without a window or gap nothing times out, so no key ever has an expiry. */
    private final boolean canExpire;

    ExpiryTimes(Program<?> program) {
        this.startState = program.startState;
        this.window = program.window;
        this.stateGap = program.stateGap;
        this.anyGap = program.anyGap;
        this.canExpire = window > 0 || anyGap;
    }

    /** @return whether advancing time can ever time out a partial match of this pattern */
    boolean canExpire() {
        return canExpire;
    }

    /** @return whether the window closed for a partial match that started at {@code startTime} */
    boolean windowClosed(long startTime, long time) {
        return window > 0 && atLeastApart(startTime, time, window);
    }

    /** @return whether the gap of {@code state} closed for a partial match whose last event came at {@code prevTime} */
    boolean gapClosed(int state, long prevTime, long time) {
        long gap = stateGap[state];
        return gap > 0 && atLeastApart(prevTime, time, gap);
    }

    /** @return the time a timeout by the gap of {@code state} is reported at */
    long gapTimeout(int state, long prevTime) {
        return saturatedAdd(prevTime, stateGap[state]);
    }

    /** @return the time a timeout by the window is reported at */
    long windowTimeout(long startTime) {
        return saturatedAdd(startTime, window);
    }

    /** @return the earliest time at which one of the key's partial matches expires, MAX_VALUE if none can */
    long earliest(KeyState st) {
        long earliest = Long.MAX_VALUE;
        if (canExpire) {
            for (int i = 0; i < st.count; i++) {
                earliest = Math.min(earliest, of(st.stateEntry(i), st.startTime(i), st.prevTime(i)));
            }
        }
        return earliest;
    }

    /** {@link #earliest(KeyState)} of the first {@code n} partial matches of a scratch array ({@link KeyState#STRIDE}). */
    long earliest(long[] pm, int n) {
        if (!canExpire) {
            return Long.MAX_VALUE;
        }
        if (!anyGap) {
            // only the whole-pattern window: the earliest start decides (no per-state gap to look up)
            long firstStart = Long.MAX_VALUE;
            boolean any = false;
            for (int at = 0; at < n * KeyState.STRIDE; at += KeyState.STRIDE) {
                if (KeyState.stateOf(pm[at + KeyState.STATE_ENTRY]) != startState) {
                    firstStart = Math.min(firstStart, pm[at + KeyState.START_TIME]);
                    any = true;
                }
            }
            return any ? saturatedAdd(firstStart, window) : Long.MAX_VALUE;
        }
        long earliest = Long.MAX_VALUE;
        for (int at = 0; at < n * KeyState.STRIDE; at += KeyState.STRIDE) {
            earliest = Math.min(earliest, of(pm[at + KeyState.STATE_ENTRY], pm[at + KeyState.START_TIME],
                    pm[at + KeyState.PREV_TIME]));
        }
        return earliest;
    }

    /** @return when one partial match expires: its window or its stage's gap closes (MAX_VALUE for neither) */
    long of(long stateEntry, long startTime, long prevTime) {
        int s = KeyState.stateOf(stateEntry);
        if (s == startState) {
            return Long.MAX_VALUE;
        }
        long earliest = Long.MAX_VALUE;
        if (window > 0) {
            earliest = saturatedAdd(startTime, window);
        }
        long gap = stateGap[s];
        if (gap > 0) {
            earliest = Math.min(earliest, saturatedAdd(prevTime, gap));
        }
        return earliest;
    }

    /**
     * Flink's {@code time - from >= span}, without overflow: the difference of two times can exceed a long (from
     * near {@code Long.MIN_VALUE} to near {@code MAX_VALUE}), but it is never negative here (time only moves forward
     * from a partial match's times), so it is compared unsigned. A sum ({@code time >= from + span}) would saturate
     * near the end of time and close a window that is still open: {@code a} at {@code MAX_VALUE - 5} within 10 ms
     * would time out at {@code b = MAX_VALUE}.
     */
    private static boolean atLeastApart(long from, long time, long span) {
        return time >= from && Long.compareUnsigned(time - from, span) >= 0;
    }

    private static long saturatedAdd(long time, long span) {
        long sum = time + span;
        return sum < time ? Long.MAX_VALUE : sum;
    }
}

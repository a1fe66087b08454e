package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.timer.KeyDueTimes;

/**
 * {@link SessionWindowOperator}'s elements and firings for a key with one session, held in its
 * {@link KeySessions}' own fields: the common case, which the operator hands here before anything else.
 *
 * <p>Design (one session widened in place). Most keys have one open session and their elements arrive roughly in
 * order, so an element usually extends its key's session: widen the bounds, add to the accumulator, note the new
 * due time, in the one small object the operator found for the key. {@link WindowOperator} would open a new window
 * slot for the cover, move the contents, delete one timer and register another in the shard's timer heap, per
 * element. While the session's firing is pending, the key's entry in {@link KeyDueTimes} is at or before the
 * session's max timestamp, and an element that moves that later arms nothing: the entry is checked again, and
 * moved, when it comes out. An element whose window does not touch the session makes the key one with several
 * sessions ({@link SessionListPath}).
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 *
 * @param <T> the element type
 * @param <R> the result type
 */
final class SingleSessionPath<T, R> extends SessionPath<T, R> {

    /** See {@link SessionPath#SessionPath} for the parameters. */
    SingleSessionPath(SessionWindowOperator<T, R> operator, KeyDictionary keys, IncrementalFunction<T, R> function,
            KeyDueTimes due, boolean purging, boolean retracting) {
        super(operator, keys, function, due, purging, retracting);
    }

    /**
     * Adds an element whose window {@code [start, end)} overlaps or touches the key's one session (or opens it: the
     * operator set the bounds of a new session to the window). The cover cannot be past cleanup: the session is live
     * and the cover ends no earlier.
     */
    void add(Object key, KeySessions st, int id, T event, long start, long end) {
        long watermark = operator.watermark();
        if (start < st.start || end > st.end) {
            Object previous = st.last;
            long oldStart = st.start;
            long oldEnd = st.end;
            st.last = null;
            st.start = Math.min(start, oldStart);
            st.end = Math.max(end, oldEnd);
            long coverMaxTs = st.end - 1;
            if (coverMaxTs > watermark) { // as the trigger's onMerge: the cover fires at its end
                st.pending = true;
                due.armIfEarlier(id, coverMaxTs, watermark);
            }
            if (previous != null) {
                operator.retract(key, oldStart, oldEnd, previous); // the merged-away window's result
            }
        }
        Object acc = st.acc;
        Object updated = function.add(acc, event);
        if (updated != acc) { // an accumulator changed in place needs no store (nor the collector's card mark)
            st.acc = updated;
            if (acc == null) {
                operator.countAccumulators(1);
            }
        }
        long maxTs = st.end - 1;
        if (maxTs > watermark) {
            if (!st.pending) { // pending: its entry is at or before its old end already
                st.pending = true;
                due.armIfEarlier(id, maxTs, watermark);
            }
            return;
        }
        fireLate(key, st, id, updated, maxTs, watermark);
    }

    /**
     * A late firing: the watermark passed the session's end already (allowed lateness). Rare, so kept out of
     * {@link #add}, which stays small enough to be inlined into the operator's element path.
     */
    private void fireLate(Object key, KeySessions st, int id, Object acc, long maxTs, long watermark) {
        Object previous = st.last;
        if (purging) {
            st.acc = null;
            operator.countAccumulators(-1);
        }
        long cleanup = operator.cleanupTime(maxTs);
        due.armIfEarlier(id, cleanup, watermark);
        R value;
        try {
            value = function.result(acc);
        } catch (RuntimeException e) {
            operator.failed(key, st.end - 1, e);
            return;
        }
        if (retracting) {
            st.last = value;
        }
        operator.emit(key, st.start, st.end, value, previous);
    }

    /**
     * The key's one session at its entry's time {@code time}: fires and/or goes if due then, else waits for its
     * real time. A session that goes frees the key's state and releases the key before its result is emitted.
     */
    void onDue(int id, KeySessions st, long time) {
        long watermark = operator.watermark();
        long maxTs = st.end - 1;
        long cleanup = operator.cleanupTime(maxTs);
        long next = st.pending ? maxTs : cleanup;
        if (next > time) {
            due.arm(id, next, watermark); // the session grew since the entry was pushed
            return;
        }
        boolean fire = st.pending && st.acc != null;
        st.pending = false;
        Object acc = st.acc;
        Object previous = st.last;
        long start = st.start;
        long end = st.end;
        Object key = fire ? keys.keyOf(id) : null;
        boolean gone = cleanup <= time;
        if (gone) {
            operator.countWindows(-1);
            if (acc != null) {
                operator.countAccumulators(-1);
            }
            operator.free(id, st);
            operator.release(id);
        } else {
            if (fire && purging) {
                st.acc = null;
                operator.countAccumulators(-1);
            }
            due.arm(id, cleanup, watermark);
        }
        if (fire) {
            R value;
            try {
                value = function.result(acc);
            } catch (RuntimeException e) {
                operator.failed(key, end - 1, e);
                return;
            }
            if (retracting && !gone) {
                st.last = value;
            }
            operator.emit(key, start, end, value, previous);
        }
    }

    /** @return when the key's one session fires, or goes if it has fired */
    long dueTime(KeySessions st) {
        long maxTs = st.end - 1;
        return st.pending ? maxTs : operator.cleanupTime(maxTs);
    }
}

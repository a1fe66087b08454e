package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.timer.KeyDueTimes;
import java.util.Arrays;

/**
 * {@link SessionWindowOperator}'s elements and firings for a key with several sessions at once (a new session
 * opened before the previous one was removed, or an out-of-order element opened an earlier one), kept in a
 * {@link SessionList} hung on the key's {@link KeySessions}.
 *
 * <p>Design (the merging rules on a sorted list). The sessions follow {@link WindowMerger}'s rules: an element's
 * window merges every session it overlaps or touches into their cover, whose contents are combined in creation
 * order (the order {@link WindowOperator} keeps its windows in) after each merged session's result is withdrawn
 * (accumulating-and-retracting mode); a window touching none is a new session, unless it is past cleanup. The
 * sessions never overlap, so the list is sorted by start and by end: a binary search finds the first one a window
 * touches. When sessions merge or go and one is left, it moves back to the {@link KeySessions} fields
 * ({@link SingleSessionPath}), and the list is pooled for the next key that needs one.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 *
 * @param <T> the element type
 * @param <R> the result type
 */
final class SessionListPath<T, R> extends SessionPath<T, R> {

    /** Lists kept for reuse at most; more go to the collector (a burst of keys with lists pins no memory). */
    private static final int MAX_POOLED = 1024;

    private SessionList[] pool = new SessionList[16];
    private int pooled;
    /** Reused by each merge: the merged sessions' indexes in creation order. */
    private int[] order = new int[8];

    /** See {@link SessionPath#SessionPath} for the parameters. */
    SessionListPath(SessionWindowOperator<T, R> operator, KeyDictionary keys, IncrementalFunction<T, R> function,
            KeyDueTimes due, boolean purging, boolean retracting) {
        super(operator, keys, function, due, purging, retracting);
    }

    /** A key with one session gets a second: both go to a list (the one there is the older). */
    void promote(KeySessions st) {
        SessionList l = pooled > 0 ? pool[--pooled] : new SessionList();
        pool[pooled] = null;
        l.insert(0, st.start, st.end);
        l.acc[0] = st.acc;
        l.last[0] = st.last;
        l.pending[0] = st.pending;
        st.acc = null;
        st.last = null;
        st.list = l;
    }

    /**
     * Follows {@link WindowMerger#mergeIn} on the key's sorted sessions with the element's window
     * {@code [start, end)}.
     *
     * @return whether a session took the element (false: its window is past cleanup and touches nothing)
     */
    boolean add(Object key, KeySessions st, int id, T event, long start, long end) {
        SessionList l = st.list;
        int i = l.firstEndingAtOrAfter(start);
        int j = i;
        while (j < l.size && l.start[j] <= end) {
            j++;
        }
        int w;
        boolean fresh = false;
        if (i == j) {
            if (operator.isLate(end - 1)) {
                return false;
            }
            l.insert(i, start, end);
            operator.countWindows(1);
            w = i;
            fresh = true;
        } else if (j == i + 1 && l.start[i] <= start && l.end[i] >= end) {
            w = i;
        } else {
            w = merge(key, st, id, i, j, Math.min(start, l.start[i]), Math.max(end, l.end[j - 1]));
        }
        Object acc = l.acc[w];
        Object updated;
        try {
            updated = function.add(acc, event);
        } catch (RuntimeException e) {
            if (fresh) { // the session was opened for this element and holds nothing
                l.remove(w, w + 1);
                operator.countWindows(-1);
                settle(id, st);
            }
            throw e;
        }
        l.acc[w] = updated;
        if (acc == null) {
            operator.countAccumulators(1);
        }
        long watermark = operator.watermark();
        long maxTs = l.end[w] - 1;
        boolean fireNow = maxTs <= watermark;
        Object previous = l.last[w];
        long sessionStart = l.start[w];
        long sessionEnd = l.end[w];
        if (!fireNow) {
            l.pending[w] = true;
        } else if (purging) {
            l.acc[w] = null;
            operator.countAccumulators(-1);
        }
        long next = fireNow ? operator.cleanupTime(maxTs) : maxTs;
        due.armIfEarlier(id, next, watermark);
        settle(id, st); // a merge may have left one session
        if (fireNow) {
            R value;
            try {
                value = function.result(updated);
            } catch (RuntimeException e) {
                operator.failed(key, sessionEnd - 1, e);
                return true;
            }
            if (retracting) {
                setLast(st, w, value);
            }
            operator.emit(key, sessionStart, sessionEnd, value, previous);
        }
        return true;
    }

    /**
     * Replaces sessions {@code [i, j)} by their cover {@code [coverStart, coverEnd)}: contents combined in creation
     * order, the merged windows' results retracted (retracting mode). @return the cover's index ({@code i})
     */
    private int merge(Object key, KeySessions st, int id, int i, int j, long coverStart, long coverEnd) {
        SessionList l = st.list;
        long watermark = operator.watermark();
        if (operator.isLate(coverEnd - 1)) {
            throw new UnsupportedOperationException("The end timestamp of an event-time window cannot become earlier"
                    + " than the current watermark by merging. Current watermark: " + watermark
                    + " window: [" + coverStart + "," + coverEnd + ")");
        }
        int k = j - i;
        if (order.length < k) {
            order = new int[Math.max(k, order.length * 2)];
        }
        for (int m = 0; m < k; m++) { // insertion sort by creation number: k is small
            int idx = i + m;
            int p = m;
            while (p > 0 && l.created[order[p - 1]] > l.created[idx]) {
                order[p] = order[p - 1];
                p--;
            }
            order[p] = idx;
        }
        // as WindowMerger, window by window: withdraw its result, then move its contents in (a result may be the
        // accumulator itself, so the retraction must be emitted before the merge changes it)
        Object into = null;
        int contents = 0;
        for (int m = 0; m < k; m++) {
            int idx = order[m];
            if (l.last[idx] != null) {
                operator.retract(key, l.start[idx], l.end[idx], l.last[idx]);
                l.last[idx] = null;
            }
            Object c = l.acc[idx];
            if (c != null) {
                into = into == null ? c : function.merge(into, c);
                contents++;
            }
        }
        l.remove(i + 1, j);
        l.start[i] = coverStart;
        l.end[i] = coverEnd;
        l.created[i] = l.nextCreated++;
        l.acc[i] = into;
        l.last[i] = null;
        l.pending[i] = coverEnd - 1 > watermark; // as the trigger's onMerge
        long coverDue = l.pending[i] ? coverEnd - 1 : operator.cleanupTime(coverEnd - 1);
        due.armIfEarlier(id, coverDue, watermark);
        operator.countWindows(-(k - 1));
        if (contents > 1) {
            operator.countAccumulators(-(contents - 1));
        }
        return i;
    }

    /**
     * The key's sessions at its entry's time {@code time}: the one firing then fires, those due for removal go. A key
     * left with none is freed and released before the result is emitted.
     */
    void onDue(int id, KeySessions st, long time) {
        SessionList l = st.list;
        long watermark = operator.watermark();
        long next = dueTime(l);
        if (next > time) {
            due.arm(id, next, watermark);
            return;
        }
        int f = -1;
        for (int m = 0; m < l.size; m++) {
            if (l.pending[m] && l.end[m] - 1 == time) {
                f = m;
                break;
            }
        }
        Object acc = null;
        Object previous = null;
        long start = 0;
        long end = 0;
        if (f >= 0) {
            l.pending[f] = false;
            acc = l.acc[f];
            previous = l.last[f];
            start = l.start[f];
            end = l.end[f];
        }
        Object key = acc != null ? keys.keyOf(id) : null;
        int at = f;
        int kept = 0;
        for (int m = 0; m < l.size; m++) {
            if (operator.cleanupTime(l.end[m] - 1) <= time) {
                operator.countWindows(-1);
                if (l.acc[m] != null) {
                    operator.countAccumulators(-1);
                }
                if (m == f) {
                    at = -1;
                }
            } else {
                if (m == f) {
                    at = kept;
                    if (acc != null && purging) {
                        l.acc[m] = null;
                        operator.countAccumulators(-1);
                    }
                }
                if (kept != m) {
                    copy(l, m, kept);
                }
                kept++;
            }
        }
        l.remove(kept, l.size);
        if (l.size > 0) {
            long again = dueTime(l);
            if (again <= time) { // would come out again at once, forever
                throw new IllegalStateException("session window operator " + operator.operatorId() + ": key id "
                        + id + " still due at " + again + " after handling time " + time);
            }
            due.arm(id, again, watermark);
        }
        settle(id, st);
        if (!operator.holds(id)) {
            operator.release(id);
        }
        if (acc != null) {
            R value;
            try {
                value = function.result(acc);
            } catch (RuntimeException e) {
                operator.failed(key, end - 1, e);
                return;
            }
            if (retracting && at >= 0) {
                setLast(st, at, value);
            }
            operator.emit(key, start, end, value, previous);
        }
    }

    /** @return the earliest time one of the sessions fires or goes */
    long dueTime(SessionList l) {
        long next = Long.MAX_VALUE;
        for (int m = 0; m < l.size; m++) {
            long maxTs = l.end[m] - 1;
            next = Math.min(next, l.pending[m] ? maxTs : operator.cleanupTime(maxTs));
        }
        return next;
    }

    private static void copy(SessionList l, int from, int to) {
        l.start[to] = l.start[from];
        l.end[to] = l.end[from];
        l.created[to] = l.created[from];
        l.acc[to] = l.acc[from];
        l.last[to] = l.last[from];
        l.pending[to] = l.pending[from];
    }

    /**
     * Records the result a session emitted last (retracting mode); {@code at} is its index, or -1 if gone. The key
     * may be back to one session ({@link #settle}), at index 0.
     */
    private static void setLast(KeySessions st, int at, Object value) {
        if (at < 0) {
            return;
        }
        if (st.list == null) {
            st.last = value;
        } else {
            st.list.last[at] = value;
        }
    }

    /**
     * A key's list after sessions went: back to the fields with one session left (its index was 0), the key's
     * state freed with none (the caller releases the key).
     */
    private void settle(int id, KeySessions st) {
        SessionList l = st.list;
        if (l.size > 1) {
            return;
        }
        if (l.size == 1) {
            st.start = l.start[0];
            st.end = l.end[0];
            st.acc = l.acc[0];
            st.last = l.last[0];
            st.pending = l.pending[0];
        }
        st.list = null;
        boolean empty = l.size == 0;
        l.clear();
        if (pooled == pool.length) {
            pool = Arrays.copyOf(pool, pooled * 2);
        }
        if (pooled < MAX_POOLED) {
            pool[pooled++] = l;
        }
        if (empty) {
            operator.free(id, st);
        }
    }
}

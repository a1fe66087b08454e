package io.cepheus.runtime.internal.join;

import com.carrotsearch.hppc.IntArrayList;
import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.shard.KeyedOperator;
import io.cepheus.runtime.internal.shard.RestoreScope;
import io.cepheus.runtime.internal.timer.FiringCalendar;
import io.cepheus.runtime.internal.timer.TimerService;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * An event-time interval join on one shard: pairs a left and a right element of the same key when
 * {@code left.ts + lower <= right.ts <= left.ts + upper} (bounds already shifted for exclusiveness).
 *
 * <p>Design: both inputs are buffered per key, each in a {@link TimeOrderedBuffer}. An arriving element probes
 * the other side's buffer with two binary searches (its partners form one contiguous timestamp range), emits
 * the pairs, and is buffered if a future element of the other side can still reach it. Future elements have
 * timestamps at or after the watermark W (earlier ones are late, as in Flink: {@code ts < W}), hence:
 * <ul>
 *   <li>a left element is dropped once {@code W > left.ts + upper}, a right element once
 *       {@code W > right.ts - lower}. Flink drops at {@code W >= bound} and so misses an on-time partner whose
 *       timestamp equals the watermark (conformance case 33); we keep it until the watermark passes;</li>
 *   <li>since drop times grow with timestamps, each buffer drops a prefix: each key waits for one due time, the
 *       earliest drop time of its two buffers, and one visit then does all the pruning (not one per element);</li>
 *   <li>an element dropped without ever having found a partner is unmatched: counted, and handed to the output
 *       at that moment (outer joins, unmatched handlers), even if its key receives nothing more.</li>
 * </ul>
 * A key whose buffers are both empty gives its buffers back to a small pool and its id to the shard.
 *
 * <p>Due times (a calendar of grid cells): keys usually empty between their elements, so nearly every element
 * would register a shard timer and later delete or fire it, a heap operation among all keys' timers each time.
 * Instead each key waits in a {@link FiringCalendar} under its due time rounded down to a cell of {@code cell}
 * ms (a power of two, ~1/256 of the interval width, at most 1 s), so that many keys share a bucket and scheduling is
 * an append. At the end of each watermark ({@link #endWatermark}) the cells that have begun are drained: a key
 * whose exact due time has come is pruned, one whose due time lies later in the cell waits again. A key whose due
 * time moves is not looked for in its old bucket; {@code cellOf} says where it counts, other entries are skipped.
 * Keys of one watermark are pruned in cell order, then in the order they were scheduled (the order among keys is
 * not observable: each key's output keeps its own order), each once; within a key the order is that of its
 * buffers. No shard timer is registered, so the shard keeps a key while {@link #holds} says so.
 *
 * <p>Snapshots write each key's buffers and the calendar's entries, with the engine's event codec when the sides are selected by class (the
 * elements are events) or with codecs given for the sides ({@link SideCodecs}).
 *
 * <p>Owned by the shard's worker thread, like the dictionary and timer service it uses. Counters are published
 * for other threads in {@link #endOfBatch()}.
 *
 * @param <T> the engine's event type
 * @param <L> the left elements' type
 * @param <R> the right elements' type
 */
public final class IntervalJoinOperator<T, L, R> extends KeyedOperator<T> {

    /** Where the join's pairs, unmatched and late elements go; called on the shard thread. */
    public interface Output<L, R> {
        /** A pair; {@code timestamp} is the larger of the two timestamps. */
        void pair(Object key, L left, long leftTimestamp, R right, long rightTimestamp, long timestamp);

        /** A left element whose interval closed at {@code closedAt} without a partner. */
        void unmatchedLeft(Object key, L left, long timestamp, long closedAt);

        /** A right element whose interval closed at {@code closedAt} without a partner. */
        void unmatchedRight(Object key, R right, long timestamp, long closedAt);

        /** A left element behind the watermark. */
        void lateLeft(Object key, L left, long timestamp);

        /** A right element behind the watermark. */
        void lateRight(Object key, R right, long timestamp);

        /** The user function threw on {@code element}; by default rethrows, which stops the shard. */
        default void deadLetter(Object key, Object element, long timestamp, RuntimeException error) {
            throw error;
        }
    }

    /** Slots of the published counters. */
    public static final int BUFFERED_LEFT = 0;
    public static final int BUFFERED_RIGHT = 1;
    public static final int PEAK_LEFT = 2;
    public static final int PEAK_RIGHT = 3;
    public static final int PAIRS = 4;
    public static final int UNMATCHED_LEFT = 5;
    public static final int UNMATCHED_RIGHT = 6;
    public static final int LATE_LEFT = 7;
    public static final int LATE_RIGHT = 8;
    public static final int DEAD_LETTERS = 9;
    /** Number of published counters. */
    public static final int COUNTERS = 10;

    private static final int POOL_LIMIT = 1024;

    /** The widest calendar cell, in ms. */
    static final long MAX_CELL = 1024;
    /** No due time: the key holds nothing. */
    private static final long NONE = Long.MIN_VALUE;

    /** Width of a calendar cell in ms, a power of two. */
    private final long cell;
    /** Keys by due time, rounded down to a cell. */
    private final FiringCalendar calendar = FiringCalendar.scheduleOrdered();
    /** Each key's exact due time (its earliest drop time), or {@link #NONE}. */
    private long[] dueAt = new long[64];
    /** The cell whose bucket holds each key's live calendar entry, or {@link #NONE} if none does. */
    private long[] cellOf = new long[64];
    /** Keys settled while the calendar is drained: scheduled once the drain is over. */
    private final IntArrayList deferred = new IntArrayList();
    private boolean draining;
    private final Function<? super T, ? extends L> leftSide;
    private final Function<? super T, ? extends R> rightSide;
    private final long lower;
    private final long upper;
    private final Output<L, R> output;
    private final AtomicLongArray published;
    private SideCodecs codecs = SideCodecs.NONE;

    private TimeOrderedBuffer[] lefts = new TimeOrderedBuffer[64];
    private TimeOrderedBuffer[] rights = new TimeOrderedBuffer[64];
    private TimeOrderedBuffer[] pool = new TimeOrderedBuffer[16];
    private int pooled;

    private long bufferedLeft;
    private long bufferedRight;
    private long peakLeft;
    private long peakRight;
    private long pairs;
    private long unmatchedLeft;
    private long unmatchedRight;
    private long lateLeft;
    private long lateRight;

    /**
     * @param operatorId its id on the shard
     * @param leftSide   the left element of an event, or null if the event is not a left element
     * @param rightSide  the right element of an event, or null
     * @param lower      the effective lower bound, in ms (exclusiveness applied)
     * @param upper      the effective upper bound; below {@code lower}, nothing ever joins
     * @param keys       the shard's key dictionary
     * @param timers     the shard's timer service (only to release keys until the shard sets the release)
     * @param output     receives the results
     * @param published  where the counters are published ({@link #COUNTERS} slots), read by other threads
     */
    public IntervalJoinOperator(int operatorId, Function<? super T, ? extends L> leftSide,
            Function<? super T, ? extends R> rightSide, long lower, long upper, KeyDictionary keys,
            TimerService timers, Output<L, R> output, AtomicLongArray published) {
        super(operatorId, keys, timers);
        this.cell = cellWidth(lower, upper);
        Arrays.fill(dueAt, NONE);
        Arrays.fill(cellOf, NONE);
        this.leftSide = Objects.requireNonNull(leftSide, "leftSide");
        this.rightSide = Objects.requireNonNull(rightSide, "rightSide");
        this.lower = lower;
        this.upper = upper;
        this.output = Objects.requireNonNull(output, "output");
        if (published.length() != COUNTERS) {
            throw new IllegalArgumentException("published counters need " + COUNTERS + " slots");
        }
        this.published = published;
    }

    @Override
    public boolean holds(int keyId) {
        return keyId < lefts.length && (lefts[keyId] != null || rights[keyId] != null);
    }

    @Override
    public void processElement(Object key, T event, long timestamp) {
        L left = leftSide.apply(event);
        if (left != null) {
            processLeft(key, left, timestamp);
        }
        R right = rightSide.apply(event);
        if (right != null) {
            processRight(key, right, timestamp);
        }
    }

    private void processLeft(Object key, L left, long ts) {
        if (ts < watermark) {
            lateLeft++;
            output.lateLeft(key, left, ts);
            return;
        }
        int id = keys.idOf(key);
        ensureCapacity(id);
        boolean matched = false;
        TimeOrderedBuffer others = rights[id];
        if (others != null) {
            int from = others.firstAtOrAfter(plus(ts, lower));
            int to = others.firstAfter(plus(ts, upper));
            for (int i = from; i < to; i++) {
                others.markMatched(i);
                matched = true;
                emitPair(key, left, ts, others.valueAt(i), others.timestampAt(i));
            }
        }
        long last = plus(ts, upper); // the latest right timestamp that can join it
        if (last < watermark) {
            // no future right element can reach it (negative upper bound): done at once
            if (!matched) {
                emitUnmatchedLeft(key, left, ts, last);
            }
            settle(id);
            return;
        }
        TimeOrderedBuffer mine = lefts[id];
        if (mine == null) {
            mine = lefts[id] = borrow();
        }
        mine.add(ts, left, matched);
        if (++bufferedLeft > peakLeft) {
            peakLeft = bufferedLeft;
        }
        settle(id);
    }

    private void processRight(Object key, R right, long ts) {
        if (ts < watermark) {
            lateRight++;
            output.lateRight(key, right, ts);
            return;
        }
        int id = keys.idOf(key);
        ensureCapacity(id);
        boolean matched = false;
        TimeOrderedBuffer others = lefts[id];
        if (others != null) {
            // left.ts + lower <= ts <= left.ts + upper  <=>  ts - upper <= left.ts <= ts - lower
            int from = others.firstAtOrAfter(minus(ts, upper));
            int to = others.firstAfter(minus(ts, lower));
            for (int i = from; i < to; i++) {
                others.markMatched(i);
                matched = true;
                emitPair(key, others.valueAt(i), others.timestampAt(i), right, ts);
            }
        }
        long last = minus(ts, lower); // the latest left timestamp that can join it
        if (last < watermark) {
            if (!matched) {
                emitUnmatchedRight(key, right, ts, last);
            }
            settle(id);
            return;
        }
        TimeOrderedBuffer mine = rights[id];
        if (mine == null) {
            mine = rights[id] = borrow();
        }
        mine.add(ts, right, matched);
        if (++bufferedRight > peakRight) {
            peakRight = bufferedRight;
        }
        settle(id);
    }

    @SuppressWarnings("unchecked")
    private void emitPair(Object key, Object left, long leftTs, Object right, long rightTs) {
        pairs++;
        try {
            output.pair(key, (L) left, leftTs, (R) right, rightTs, Math.max(leftTs, rightTs));
        } catch (RuntimeException e) {
            deadLetters++;
            output.deadLetter(key, leftTs >= rightTs ? left : right, Math.max(leftTs, rightTs), e);
        }
    }

    private void emitUnmatchedLeft(Object key, L left, long ts, long last) {
        unmatchedLeft++;
        try {
            output.unmatchedLeft(key, left, ts, Math.max(ts, last));
        } catch (RuntimeException e) {
            deadLetters++;
            output.deadLetter(key, left, ts, e);
        }
    }

    private void emitUnmatchedRight(Object key, R right, long ts, long last) {
        unmatchedRight++;
        try {
            output.unmatchedRight(key, right, ts, Math.max(ts, last));
        } catch (RuntimeException e) {
            deadLetters++;
            output.deadLetter(key, right, ts, e);
        }
    }

    @Override
    public boolean beginWatermark(long newWatermark) {
        if (!advanceWatermark(newWatermark)) {
            return false;
        }
        return true;
    }

    /**
     * The calendar cell width for an interval of {@code upper - lower} ms: about 1/256 of it as a power of two,
     * between 1 ms (exact due times) and {@link #MAX_CELL}. Keys due within one interval then share at most a few
     * hundred buckets, and a key is visited early (its cell begun, its due time not yet come) only while a
     * watermark falls in that small stretch; the cap bounds those early visits when watermarks come often.
     */
    static long cellWidth(long lower, long upper) {
        if (upper <= lower) {
            return 1; // nothing joins: elements leave at once or at one instant
        }
        long width = upper - lower;
        if (width < 0) {
            width = Long.MAX_VALUE; // the difference overflowed
        }
        return Math.min(MAX_CELL, Math.max(1, Long.highestOneBit(width >>> 8)));
    }

    /** Drops (and reports unmatched) what the watermark has passed in the keys whose due time has come. */
    @Override
    public void endWatermark() {
        draining = true;
        try {
            while (!calendar.isEmpty() && calendar.earliest() <= watermark) {
                long at = calendar.earliest();
                IntArrayList due = calendar.pollEarliest();
                int i = 0;
                try {
                    while (i < due.size()) {
                        int id = due.get(i++);
                        if (cellOf[id] == at) { // else a stale entry: the key moved, or was released
                            cellOf[id] = NONE;
                            deferred.add(id); // rescheduled at its (new) due time once the drain is over
                            if (dueAt[id] <= watermark) {
                                prune(id);
                            }
                        }
                    }
                } finally {
                    // the output threw: the keys not reached yet stay due (the shard stops on the throw anyway)
                    for (int j = i; j < due.size(); j++) {
                        int id = due.get(j);
                        if (cellOf[id] == at) {
                            cellOf[id] = NONE;
                            deferred.add(id);
                        }
                    }
                    calendar.recycle(due);
                }
            }
        } finally {
            draining = false;
            scheduleDeferred();
        }
    }

    /** Schedules the keys settled during the drain; their cells may have begun, so not before it is over. */
    private void scheduleDeferred() {
        for (int i = 0, n = deferred.size(); i < n; i++) {
            int id = deferred.get(i);
            long due = dueAt[id];
            if (due != NONE && cellOf[id] == NONE) {
                long at = due & -cell;
                cellOf[id] = at;
                calendar.schedule(id, at);
            }
        }
        deferred.clear();
    }

    /** The key's due time has come: drops (and reports unmatched) what the watermark has passed. */
    @SuppressWarnings("unchecked")
    private void prune(int id) {
        Object key = keys.keyOf(id);
        TimeOrderedBuffer l = lefts[id];
        while (l != null && !l.isEmpty() && passed(plus(l.earliest(), upper))) {
            int at = l.start();
            long ts = l.timestampAt(at);
            boolean wasMatched = l.isMatched(at);
            L value = (L) l.valueAt(at);
            l.removeFirst();
            bufferedLeft--;
            if (!wasMatched) {
                emitUnmatchedLeft(key, value, ts, plus(ts, upper));
            }
        }
        TimeOrderedBuffer r = rights[id];
        while (r != null && !r.isEmpty() && passed(minus(r.earliest(), lower))) {
            int at = r.start();
            long ts = r.timestampAt(at);
            boolean wasMatched = r.isMatched(at);
            R value = (R) r.valueAt(at);
            r.removeFirst();
            bufferedRight--;
            if (!wasMatched) {
                emitUnmatchedRight(key, value, ts, minus(ts, lower));
            }
        }
        settle(id);
    }

    @Override
    public void onTimer(int keyId, long namespace, long timestamp) {
        throw new IllegalStateException("interval join operator " + operatorId + " registers no shard timers");
    }

    @Override
    public void onProcessingTimer(int keyId, long namespace, long timestamp, long now) {
        throw new IllegalStateException("an event-time interval join registers no processing-time timers");
    }

    /** Puts the key in the calendar at its earliest drop time, or frees the key when it holds nothing. */
    private void settle(int id) {
        if (lefts[id] != null && lefts[id].isEmpty()) {
            giveBack(lefts[id]);
            lefts[id] = null;
        }
        if (rights[id] != null && rights[id].isEmpty()) {
            giveBack(rights[id]);
            rights[id] = null;
        }
        if (lefts[id] == null && rights[id] == null) {
            dueAt[id] = NONE;
            cellOf[id] = NONE; // an entry left in a bucket is stale now, even if the id is handed out again
            keyRelease.idle(id);
            return;
        }
        long due = dueTime(id);
        dueAt[id] = due;
        if (draining) {
            return; // the drain put the key on its deferred list: its cell may have begun already
        }
        long at = due & -cell; // rounded down: visited at the latest when due, perhaps a little before
        if (cellOf[id] != at) {
            cellOf[id] = at; // an entry in the old bucket stays, skipped when drained
            calendar.schedule(id, at);
        }
    }

    /** @return the key's earliest drop time over its (non-empty) buffers */
    private long dueTime(int id) {
        long due = Long.MAX_VALUE;
        if (lefts[id] != null) {
            due = dropTime(plus(lefts[id].earliest(), upper));
        }
        if (rights[id] != null) {
            due = Math.min(due, dropTime(minus(rights[id].earliest(), lower)));
        }
        return due;
    }

    /**
     * The watermark that drops an element whose last partner timestamp is {@code last}: the first one above it.
     * At {@code Long.MAX_VALUE} (the end of input) everything goes.
     */
    private static long dropTime(long last) {
        return last >= Long.MAX_VALUE - 1 ? Long.MAX_VALUE : last + 1;
    }

    /**
     * @param last an element's last partner timestamp (saturated: an interval that would end after the end of time
     *             ends there)
     * @return whether the watermark has passed it, so no partner can come; the final watermark,
     *         {@code Long.MAX_VALUE}, passes everything, as {@link #dropTime} says
     */
    private boolean passed(long last) {
        return last < watermark || watermark == Long.MAX_VALUE;
    }

    private static long plus(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE; // saturate instead of wrapping around
        }
        return r;
    }

    private static long minus(long a, long b) {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) {
            return b < 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return r;
    }

    private TimeOrderedBuffer borrow() {
        return pooled > 0 ? pool[--pooled] : new TimeOrderedBuffer();
    }

    private void giveBack(TimeOrderedBuffer buffer) {
        if (pooled < POOL_LIMIT) {
            buffer.recycle();
            if (pooled == pool.length) {
                pool = Arrays.copyOf(pool, pooled * 2);
            }
            pool[pooled++] = buffer;
        }
    }

    private void ensureCapacity(int id) {
        if (id >= lefts.length) {
            int n = Math.max(id + 1, lefts.length * 2);
            lefts = Arrays.copyOf(lefts, n);
            rights = Arrays.copyOf(rights, n);
            int old = dueAt.length;
            dueAt = Arrays.copyOf(dueAt, n);
            cellOf = Arrays.copyOf(cellOf, n);
            Arrays.fill(dueAt, old, n, NONE);
            Arrays.fill(cellOf, old, n, NONE);
        }
    }

    @Override
    public void endOfBatch() {
        published.lazySet(BUFFERED_LEFT, bufferedLeft);
        published.lazySet(BUFFERED_RIGHT, bufferedRight);
        published.lazySet(PEAK_LEFT, peakLeft);
        published.lazySet(PEAK_RIGHT, peakRight);
        published.lazySet(PAIRS, pairs);
        published.lazySet(UNMATCHED_LEFT, unmatchedLeft);
        published.lazySet(UNMATCHED_RIGHT, unmatchedRight);
        published.lazySet(LATE_LEFT, lateLeft);
        published.lazySet(LATE_RIGHT, lateRight);
        published.lazySet(DEAD_LETTERS, deadLetters);
    }

    @Override
    public long lateEvents() {
        return lateLeft + lateRight;
    }

    @Override
    public long bufferedEvents() {
        return bufferedLeft + bufferedRight;
    }

    /** @return left elements held now (shard thread) */
    public long bufferedLeft() {
        return bufferedLeft;
    }

    /** @return right elements held now (shard thread) */
    public long bufferedRight() {
        return bufferedRight;
    }

    /** Sets how snapshots write the buffered elements (setup, before the shard runs). */
    public void snapshotCodecs(SideCodecs sideCodecs) {
        this.codecs = Objects.requireNonNull(sideCodecs, "sideCodecs");
    }

    /**
     * Writes the watermark, counters, every key's buffers (timestamp, whether the element found a partner, the
     * element) and the calendar's entries as they stand, by key id (the shard's key dictionary is restored with the
     * same ids), stale ones included: a stale entry counts again when its key is scheduled at its cell again, and
     * where it stands in its bucket is where the key is pruned at that watermark. So a restored join reports the
     * unmatched elements of different keys at one watermark in the order the uninterrupted one would.
     */
    @Override
    public void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        EventCodec<Object> leftCodec = codecs.first(events, "interval join operator " + operatorId);
        EventCodec<Object> rightCodec = codecs.second(events, "interval join operator " + operatorId);
        out.writeLong(watermark);
        out.writeLong(pairs);
        out.writeLong(unmatchedLeft);
        out.writeLong(unmatchedRight);
        out.writeLong(lateLeft);
        out.writeLong(lateRight);
        out.writeLong(deadLetters);
        out.writeLong(peakLeft);
        out.writeLong(peakRight);
        out.writeInt(keysHeldBelow(lefts.length));
        for (int id = 0; id < lefts.length; id++) {
            if (holds(id)) {
                writeKey(out, keyCodec, id);
                TimeOrderedBuffer.write(lefts[id], out, leftCodec);
                TimeOrderedBuffer.write(rights[id], out, rightCodec);
            }
        }
        com.carrotsearch.hppc.LongArrayList times = new com.carrotsearch.hppc.LongArrayList();
        IntArrayList ids = new IntArrayList();
        calendar.forEachInDrainOrder((time, id) -> {
            times.add(time);
            ids.add(id);
        });
        out.writeInt(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            out.writeLong(times.get(i));
            out.writeInt(ids.get(i));
        }
    }

    /** Restores what {@link #writeState} wrote into this fresh operator, and its calendar entry for entry. */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        readState(in, events, keyCodec, RestoreScope.EXACT);
    }

    /**
     * Restores what {@link #writeState} wrote; restoring into another number of shards, the calendar's entries (by
     * the old shard's key ids) are read past and each kept key gets one entry at its due cell.
     */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec, RestoreScope scope)
            throws IOException {
        EventCodec<Object> leftCodec = codecs.first(events, "interval join operator " + operatorId);
        EventCodec<Object> rightCodec = codecs.second(events, "interval join operator " + operatorId);
        watermark = in.readLong();
        pairs = scope.counted(pairs, in.readLong());
        unmatchedLeft = scope.counted(unmatchedLeft, in.readLong());
        unmatchedRight = scope.counted(unmatchedRight, in.readLong());
        lateLeft = scope.counted(lateLeft, in.readLong());
        lateRight = scope.counted(lateRight, in.readLong());
        deadLetters = scope.counted(deadLetters, in.readLong());
        long readPeakLeft = in.readLong();
        long readPeakRight = in.readLong();
        peakLeft = scope.exact() ? readPeakLeft : scope.countsHere() ? Math.max(peakLeft, readPeakLeft) : peakLeft;
        peakRight = scope.exact() ? readPeakRight : scope.countsHere() ? Math.max(peakRight, readPeakRight) : peakRight;
        int live = readCount(in, "an interval join with %d keys");
        IntArrayList kept = new IntArrayList();
        for (int i = 0; i < live; i++) {
            int id = readKeptKey(in, keyCodec, scope, "the interval join's state");
            if (id < 0) {
                TimeOrderedBuffer.read(in, leftCodec, TimeOrderedBuffer::new, "another shard's key's left side");
                TimeOrderedBuffer.read(in, rightCodec, TimeOrderedBuffer::new, "another shard's key's right side");
                continue;
            }
            kept.add(id);
            Object key = keys.keyOf(id);
            ensureCapacity(id);
            lefts[id] = TimeOrderedBuffer.read(in, leftCodec, this::borrow, "key " + key + "'s left side");
            rights[id] = TimeOrderedBuffer.read(in, rightCodec, this::borrow, "key " + key + "'s right side");
            bufferedLeft += lefts[id] == null ? 0 : lefts[id].size();
            bufferedRight += rights[id] == null ? 0 : rights[id].size();
            if (!holds(id)) {
                throw new IOException("key " + key + " has no element in the interval join's state");
            }
            dueAt[id] = dueTime(id);
            cellOf[id] = dueAt[id] & -cell; // its entry is among those below, as settle left it
        }
        int entries = in.readInt();
        if (entries < 0) {
            throw new IOException("an interval join calendar of " + entries + " entries");
        }
        if (!scope.exact()) {
            for (int i = 0; i < entries; i++) {
                in.readLong();
                in.readInt();
            }
            for (int i = 0; i < kept.size(); i++) {
                calendar.schedule(kept.get(i), cellOf[kept.get(i)]);
            }
            return;
        }
        boolean[] waiting = new boolean[lefts.length];
        int waitingKeys = 0;
        for (int i = 0; i < entries; i++) {
            long time = in.readLong();
            int id = in.readInt();
            if (id < 0) {
                throw new IOException("a calendar entry for key id " + id);
            }
            ensureCapacity(id);
            calendar.schedule(id, time);
            if (id < waiting.length && holds(id) && cellOf[id] == time && !waiting[id]) {
                waiting[id] = true;
                waitingKeys++;
            }
        }
        if (waitingKeys != live) {
            throw new IOException("the interval join's calendar has entries for " + waitingKeys + " of its " + live
                    + " keys at their due times: a key without one would never be pruned");
        }
    }
}

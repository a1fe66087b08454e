package io.cepheus.runtime.internal.join;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.shard.KeyedOperator;
import io.cepheus.runtime.internal.shard.RestoreScope;
import io.cepheus.runtime.internal.shard.TimerNamespace;
import io.cepheus.runtime.internal.timer.KeyTimer;
import io.cepheus.runtime.internal.timer.TimerService;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * An event-time temporal (as-of) join on one shard: each stream element joins the version of its key's table
 * valid at its timestamp, the latest version with version timestamp at or before it (equal timestamps: the
 * version that arrived last).
 *
 * <p>Design: per key, the waiting stream elements and the table's versions are two {@link TimeOrderedBuffer}s.
 * Versions with timestamps below the watermark W are late (they would rewrite history already emitted), so
 * once W > element.ts no version that matters to the element can still arrive: the element is joined then.
 * Future elements have timestamps at or after W, so of the versions at or before W only the latest can still
 * be needed; older ones are dropped. One event-time timer per key covers both duties, at the earlier of "the
 * watermark passes the oldest waiting element" and "the watermark reaches the second-oldest version".
 * A key's latest version is kept as long as the engine runs (it is the table's current row), so a key is
 * released only if it never received a version.
 *
 * <p>Owned by the shard's worker thread; counters are published for other threads in {@link #endOfBatch()}.
 *
 * @param <T> the engine's event type
 * @param <S> the stream elements' type
 * @param <V> the versions' type
 */
public final class TemporalJoinOperator<T, S, V> extends KeyedOperator<T> {

    /** Where the join's results go; called on the shard thread. */
    public interface Output<S, V> {
        /** The element joined with its version ({@code null} if it has none and the join is so configured). */
        void joined(Object key, S element, V version, long timestamp);

        /** An element with no version at its timestamp (when not joined with null). */
        void unmatched(Object key, S element, long timestamp);

        /** A stream element behind the watermark. */
        void lateElement(Object key, S element, long timestamp);

        /** A version behind the watermark. */
        void lateVersion(Object key, V version, long timestamp);

        /** The user function threw on {@code element}; by default rethrows, which stops the shard. */
        default void deadLetter(Object key, Object element, long timestamp, RuntimeException error) {
            throw error;
        }
    }

    /** Slots of the published counters. */
    public static final int BUFFERED = 0;
    public static final int VERSIONS = 1;
    public static final int JOINED = 2;
    public static final int UNMATCHED = 3;
    public static final int LATE_ELEMENTS = 4;
    public static final int LATE_VERSIONS = 5;
    public static final int DEAD_LETTERS = 6;
    /** Number of published counters. */
    public static final int COUNTERS = 7;

    private final long timerNamespace;
    /** Each key's one timer: its next drop (or join) time. */
    private final KeyTimer keyTimer;
    private final Function<? super T, ? extends S> streamSide;
    private final Function<? super T, ? extends V> versionSide;
    private final boolean joinMissingWithNull;
    private final TimerService timers;
    private final Output<S, V> output;
    private final AtomicLongArray published;
    private SideCodecs codecs = SideCodecs.NONE;

    private TimeOrderedBuffer[] pending = new TimeOrderedBuffer[64];
    private TimeOrderedBuffer[] versions = new TimeOrderedBuffer[64];

    private long buffered;
    private long versionCount;
    private long joined;
    private long unmatched;
    private long lateElements;
    private long lateVersions;

    /**
     * @param operatorId          its id on the shard
     * @param streamSide          the stream element of an event, or null
     * @param versionSide         the version of an event, or null; its event time is the version timestamp
     * @param joinMissingWithNull whether an element without a version joins with null (else: unmatched output)
     * @param keys                the shard's key dictionary
     * @param timers              the shard's timer service
     * @param output              receives the results
     * @param published           where the counters are published ({@link #COUNTERS} slots)
     */
    public TemporalJoinOperator(int operatorId, Function<? super T, ? extends S> streamSide,
            Function<? super T, ? extends V> versionSide, boolean joinMissingWithNull, KeyDictionary keys,
            TimerService timers, Output<S, V> output, AtomicLongArray published) {
        super(operatorId, keys, timers);
        this.timerNamespace = TimerNamespace.of(operatorId, 0);
        this.keyTimer = new KeyTimer(timers, timerNamespace, true);
        this.streamSide = Objects.requireNonNull(streamSide, "streamSide");
        this.versionSide = Objects.requireNonNull(versionSide, "versionSide");
        this.joinMissingWithNull = joinMissingWithNull;
        this.timers = timers;
        this.output = Objects.requireNonNull(output, "output");
        if (published.length() != COUNTERS) {
            throw new IllegalArgumentException("published counters need " + COUNTERS + " slots");
        }
        this.published = published;
    }

    @Override
    public boolean holds(int keyId) {
        return keyId < pending.length && (pending[keyId] != null || versions[keyId] != null);
    }

    @Override
    public void processElement(Object key, T event, long timestamp) {
        V version = versionSide.apply(event);
        if (version != null) {
            if (timestamp < watermark) {
                lateVersions++;
                output.lateVersion(key, version, timestamp);
            } else {
                int id = keys.idOf(key);
                ensureCapacity(id);
                if (versions[id] == null) {
                    versions[id] = new TimeOrderedBuffer();
                }
                versions[id].add(timestamp, version, false);
                versionCount++;
                pruneVersions(versions[id]);
                settle(id);
            }
        }
        S element = streamSide.apply(event);
        if (element != null) {
            if (timestamp < watermark) {
                lateElements++;
                output.lateElement(key, element, timestamp);
            } else {
                int id = keys.idOf(key);
                ensureCapacity(id);
                if (pending[id] == null) {
                    pending[id] = new TimeOrderedBuffer();
                }
                pending[id].add(timestamp, element, false);
                buffered++;
                settle(id);
            }
        }
    }

    @Override
    public boolean beginWatermark(long newWatermark) {
        if (!advanceWatermark(newWatermark)) {
            return false;
        }
        return true;
    }

    /** Joins the key's elements the watermark has passed, in timestamp order, then drops outdated versions. */
    @Override
    @SuppressWarnings("unchecked")
    public void onTimer(int id, long namespace, long timestamp) {
        if (namespace != timerNamespace) {
            throw new IllegalStateException("timer of namespace " + namespace + " handed to operator " + operatorId);
        }
        if (!keyTimer.fired(id, timestamp)) {
            return;
        }
        Object key = keys.keyOf(id);
        TimeOrderedBuffer waiting = pending[id];
        TimeOrderedBuffer table = versions[id];
        // the final watermark, Long.MAX_VALUE, passes an element at Long.MAX_VALUE too: nothing comes after it
        while (waiting != null && !waiting.isEmpty()
                && (waiting.earliest() < watermark || watermark == Long.MAX_VALUE)) {
            int at = waiting.start();
            long ts = waiting.timestampAt(at);
            S element = (S) waiting.valueAt(at);
            waiting.removeFirst();
            buffered--;
            V version = null;
            if (table != null) {
                int v = table.firstAfter(ts) - 1; // the latest version at or before ts
                version = v >= table.start() ? (V) table.valueAt(v) : null;
            }
            try {
                if (version != null || joinMissingWithNull) {
                    joined++;
                    output.joined(key, element, version, ts);
                } else {
                    unmatched++;
                    output.unmatched(key, element, ts);
                }
            } catch (RuntimeException e) {
                deadLetters++;
                output.deadLetter(key, element, ts, e);
            }
        }
        if (table != null) {
            pruneVersions(table);
        }
        settle(id);
    }

    /** Drops the versions no future element can need: all before the latest one at or before the watermark. */
    private void pruneVersions(TimeOrderedBuffer table) {
        while (table.size() > 1 && table.timestampAt(table.start() + 1) <= watermark) {
            table.removeFirst();
            versionCount--;
        }
    }

    /** Puts the key's timer where its next duty is; frees a key that holds nothing. */
    private void settle(int id) {
        long due = Long.MAX_VALUE;
        boolean needsTimer = false;
        TimeOrderedBuffer waiting = pending[id];
        if (waiting != null) {
            if (waiting.isEmpty()) {
                pending[id] = null;
            } else {
                long ts = waiting.earliest();
                due = ts >= Long.MAX_VALUE - 1 ? Long.MAX_VALUE : ts + 1; // the first watermark above it
                needsTimer = true;
            }
        }
        TimeOrderedBuffer table = versions[id];
        if (table != null && table.size() > 1) {
            due = Math.min(due, table.timestampAt(table.start() + 1));
            needsTimer = true;
        }
        boolean empty = pending[id] == null && versions[id] == null;
        keyTimer.moveTo(id, needsTimer ? due : KeyTimer.NONE);
        if (empty) {
            keyRelease.idle(id);
        }
    }

    private void ensureCapacity(int id) {
        if (id >= pending.length) {
            int n = Math.max(id + 1, pending.length * 2);
            pending = Arrays.copyOf(pending, n);
            versions = Arrays.copyOf(versions, n);
        }
    }

    @Override
    public void onProcessingTimer(int keyId, long namespace, long timestamp, long now) {
        throw new IllegalStateException("an event-time temporal join registers no processing-time timers");
    }

    @Override
    public void endWatermark() {
        // all work happens in onTimer, for the keys whose timer is due
    }

    @Override
    public void endOfBatch() {
        published.lazySet(BUFFERED, buffered);
        published.lazySet(VERSIONS, versionCount);
        published.lazySet(JOINED, joined);
        published.lazySet(UNMATCHED, unmatched);
        published.lazySet(LATE_ELEMENTS, lateElements);
        published.lazySet(LATE_VERSIONS, lateVersions);
        published.lazySet(DEAD_LETTERS, deadLetters);
    }

    @Override
    public long lateEvents() {
        return lateElements + lateVersions;
    }

    @Override
    public long bufferedEvents() {
        return buffered + versionCount;
    }

    /** Sets how snapshots write the elements and versions (setup, before the shard runs). */
    public void snapshotCodecs(SideCodecs sideCodecs) {
        this.codecs = Objects.requireNonNull(sideCodecs, "sideCodecs");
    }

    /**
     * Writes the watermark, counters and every key's waiting elements and versions. The keys' timers are not
     * written: each follows from the key's buffers, and the shard fires timers of one time in key id order.
     */
    @Override
    public void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        EventCodec<Object> elementCodec = codecs.first(events, "temporal join operator " + operatorId);
        EventCodec<Object> versionCodec = codecs.second(events, "temporal join operator " + operatorId);
        out.writeLong(watermark);
        out.writeLong(joined);
        out.writeLong(unmatched);
        out.writeLong(lateElements);
        out.writeLong(lateVersions);
        out.writeLong(deadLetters);
        out.writeInt(keysHeldBelow(pending.length));
        for (int id = 0; id < pending.length; id++) {
            if (holds(id)) {
                writeKey(out, keyCodec, id);
                TimeOrderedBuffer.write(pending[id], out, elementCodec);
                TimeOrderedBuffer.write(versions[id], out, versionCodec);
            }
        }
    }

    /** Restores what {@link #writeState} wrote into this fresh operator, and each key's timer. */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        readState(in, events, keyCodec, RestoreScope.EXACT);
    }

    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec, RestoreScope scope)
            throws IOException {
        EventCodec<Object> elementCodec = codecs.first(events, "temporal join operator " + operatorId);
        EventCodec<Object> versionCodec = codecs.second(events, "temporal join operator " + operatorId);
        watermark = in.readLong();
        joined = scope.counted(joined, in.readLong());
        unmatched = scope.counted(unmatched, in.readLong());
        lateElements = scope.counted(lateElements, in.readLong());
        lateVersions = scope.counted(lateVersions, in.readLong());
        deadLetters = scope.counted(deadLetters, in.readLong());
        int live = readCount(in, "a temporal join with %d keys");
        for (int i = 0; i < live; i++) {
            int id = readKeptKey(in, keyCodec, scope, "the temporal join's state");
            if (id < 0) {
                TimeOrderedBuffer.read(in, elementCodec, TimeOrderedBuffer::new, "another shard's key's elements");
                TimeOrderedBuffer.read(in, versionCodec, TimeOrderedBuffer::new, "another shard's key's versions");
                continue;
            }
            Object key = keys.keyOf(id);
            ensureCapacity(id);
            pending[id] = TimeOrderedBuffer.read(in, elementCodec, TimeOrderedBuffer::new,
                    "key " + key + "'s elements");
            versions[id] = TimeOrderedBuffer.read(in, versionCodec, TimeOrderedBuffer::new,
                    "key " + key + "'s versions");
            buffered += pending[id] == null ? 0 : pending[id].size();
            versionCount += versions[id] == null ? 0 : versions[id].size();
            if (!holds(id)) {
                throw new IOException("key " + key + " has nothing in the temporal join's state");
            }
            settle(id);
        }
    }
}

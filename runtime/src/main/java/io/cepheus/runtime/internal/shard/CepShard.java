package io.cepheus.runtime.internal.shard;

import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.agent.Agent;
import io.cepheus.runtime.internal.queue.ShardInbox;
import io.cepheus.runtime.internal.time.WatermarkValve;
import io.cepheus.runtime.internal.timer.TimerHandler;
import io.cepheus.runtime.internal.timer.TimerService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * One shard of the engine, as an {@link Agent}: each duty cycle drains a batch of records from its inbox
 * and applies them in order to the operators registered on it (CEP patterns, windows, joins). The shard's
 * watermark is the minimum over its producers' watermarks ({@link WatermarkValve}, idle producers excluded), applied the moment it
 * advances so an event behind it in the queue is judged against it.
 *
 * <p>Owned by one thread: the shard's worker in production, the caller's through an
 * {@link io.cepheus.runtime.agent.AgentInvoker} in tests. The key dictionary, timer service, valve and
 * operators belong to that thread too; only the inbox is shared (many producers, this one consumer).
 *
 * @param <T> the event type
 */
public final class CepShard<T> implements Agent, ShardContext<T>, Consumer<ShardRecord> {

    private final int index;
    private final ShardInbox<ShardRecord> inbox;
    private final int batchSize;
    private final KeyDictionary keys = new KeyDictionary();
    private final TimerService timers = new TimerService();
    private final WatermarkValve valve = new WatermarkValve();
    private final UserFailures failures = new UserFailures();
    private final List<ShardOperator<T>> operators = new ArrayList<>();
    private final TimerHandler timerDispatch = (key, namespace, timestamp) ->
            operators.get(TimerNamespace.operatorOf(namespace)).onTimer(key, namespace, timestamp);
    private final TimerHandler processingTimeDispatch = (key, namespace, timestamp) ->
            operators.get(TimerNamespace.operatorOf(namespace)).onProcessingTimer(key, namespace, timestamp,
                    timers.currentProcessingTime());
    private io.cepheus.runtime.time.Clock clock;
    private CachedClock producersClock;
    private long events;
    private long watermark = Long.MIN_VALUE;
    private volatile boolean finished;
    private final long finalWatermark;
    private Runnable onFinished = () -> { };

    // counters published at the end of each batch for readers on other threads (release writes, no fences per
    // event); slots in the order of ShardMetrics' components
    private static final int EVENTS = 0;
    private static final int LATE = 1;
    private static final int DEAD = 2;
    private static final int MATCHES = 3;
    private static final int TIMEOUTS = 4;
    private static final int PARTIAL = 5;
    private static final int BUFFERED = 6;
    private static final int ENTRIES = 7;
    private static final int KEYS = 8;
    private static final int WATERMARK = 9;
    private final AtomicLongArray published = new AtomicLongArray(10);

    /**
     * @param index          the shard's number, for names and messages
     * @param inbox          the shard's inbox
     * @param batchSize      records drained per duty cycle at most
     * @param finalWatermark applied once the inbox is closed and drained ({@code Long.MAX_VALUE} flushes
     *                       everything, as at the end of bounded input); {@code Long.MIN_VALUE} for none
     */
    public CepShard(int index, ShardInbox<ShardRecord> inbox, int batchSize, long finalWatermark) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
        }
        this.index = index;
        this.inbox = inbox;
        this.batchSize = batchSize;
        this.finalWatermark = finalWatermark;
        published.set(WATERMARK, Long.MIN_VALUE);
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public io.cepheus.runtime.time.Clock clock() {
        return clock;
    }

    /** @return the shard's key dictionary, for operators created on it (setup, before the shard runs) */
    @Override
    public KeyDictionary keys() {
        return keys;
    }

    /**
     * @return where the shard's operators report what user code threw; the shard throws it at the end of the
     *         batch (setup, before the shard runs)
     */
    @Override
    public UserFailures failures() {
        return failures;
    }

    private final java.util.Map<Object, io.cepheus.runtime.internal.cep.SharedEventBuffer<T>> patternBuffers =
            new java.util.IdentityHashMap<>();

    /**
     * @param tieBreaker how the patterns order events of equal timestamp (null: arrival order only)
     * @return the event-time buffer the shard's patterns with this tie-breaker share (setup, before the shard runs)
     */
    @Override
    public io.cepheus.runtime.internal.cep.SharedEventBuffer<T> patternBuffer(
            java.util.Comparator<? super T> tieBreaker) {
        return patternBuffers.computeIfAbsent(tieBreaker,
                k -> new io.cepheus.runtime.internal.cep.SharedEventBuffer<>(tieBreaker));
    }

    /** @return the shard's timer service, for operators created on it (setup, before the shard runs) */
    @Override
    public TimerService timers() {
        return timers;
    }

    /**
     * Sets what runs, on the shard thread, once the inbox is closed and drained and the final watermark applied
     * (the engine's {@code close()} waits for it). Setup, before the shard runs.
     */
    public void onFinished(Runnable callback) {
        this.onFinished = java.util.Objects.requireNonNull(callback, "callback");
    }

    /**
     * Registers an operator (setup, before the shard runs). Its id must equal its position (0, 1, 2 ...):
     * the shard hands each fired timer to the operator whose id is the timer's namespace.
     */
    public void add(ShardOperator<T> operator) {
        if (operator.operatorId() != operators.size()) {
            throw new IllegalArgumentException("operator id " + operator.operatorId() + " must be "
                    + operators.size() + ", its position on the shard");
        }
        operators.add(operator);
        operator.keyRelease(this::releaseIfIdle);
    }

    /** A key id is forgotten only when no operator holds anything for it and no timer is pending. */
    private void releaseIfIdle(int keyId) {
        if (timers.hasTimers(keyId)) {
            return;
        }
        for (int i = 0; i < operators.size(); i++) {
            if (operators.get(i).holds(keyId)) {
                return;
            }
        }
        keys.release(keyId);
    }

    /**
     * Makes every duty cycle refresh the producers' cached clock (setup, before the shard runs), so their sends
     * see the time at most one duty cycle old.
     */
    public void refreshes(CachedClock producersClock) {
        this.producersClock = java.util.Objects.requireNonNull(producersClock, "producersClock");
    }

    /**
     * Gives the shard the clock its processing-time timers follow (setup, before the shard runs); without one,
     * processing-time timers never fire.
     */
    public void processingTimeClock(io.cepheus.runtime.time.Clock clock) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
    }

    /**
     * Marks a producer idle when it has sent nothing at all (to any shard) for {@code millis} of the
     * processing-time clock, until it sends again (setup, before the shard runs). This is what lets the watermark
     * move on when a source's thread simply stops sending: the producer's own idleness detection runs only when
     * its thread calls it. Activity is engine-wide, not per shard, so a source that is busy with other shards'
     * keys is never taken for idle here (its later events would otherwise be late).
     *
     * @param activity per producer input index, the clock time of its latest send (written by the producers;
     *                 a producer's input index is the same at every shard)
     * @param millis   the timeout
     */
    public void silentProducerTimeout(java.util.concurrent.atomic.AtomicLong[] activity, long millis) {
        if (millis < 1) {
            throw new IllegalArgumentException("silent producer timeout must be at least 1 ms, was " + millis);
        }
        this.activity = java.util.Objects.requireNonNull(activity, "activity");
        this.silentTimeout = millis;
    }

    private long silentTimeout = Long.MAX_VALUE;
    private java.util.concurrent.atomic.AtomicLong[] activity;
    /** Per producer, whether this shard left it out of the watermark for silence (not the producer itself). */
    private boolean[] silent = new boolean[0];

    /** A record came from {@code producer}: it is not silent. */
    private void heard(int producer) {
        if (producer < silent.length && silent[producer]) {
            silent[producer] = false;
            advanceTo(valve.onActive(producer));
        }
    }

    /** Leaves out producers silent for the timeout, takes back the ones that spoke; not during alignment. */
    private void checkSilentProducers() {
        if (activity == null || clock == null || barrier != NO_BARRIER) {
            return;
        }
        long now = clock.millis();
        int n = Math.min(valve.inputCount(), activity.length);
        if (silent.length < n) {
            silent = java.util.Arrays.copyOf(silent, n);
        }
        for (int i = 0; i < n; i++) {
            boolean quiet = now - activity[i].get() >= silentTimeout;
            if (quiet && !silent[i] && !valve.isIdle(i) && valve.watermarkOf(i) != Long.MAX_VALUE) {
                silent[i] = true;
                advanceTo(valve.onIdle(i));
            } else if (!quiet && silent[i]) {
                heard(i);
            }
        }
    }

    /** Registers a producer (setup, before the shard runs). @return its input index at this shard */
    public int addProducer() {
        return valve.addInput();
    }

    @Override
    public int doWork() {
        if (finished) {
            return 0;
        }
        int drained;
        int fired = 0;
        if (producersClock != null) {
            producersClock.refresh();
        }
        try {
            drained = inbox.drain(this, batchSize);
            checkSilentProducers();
            if (clock != null && timers.processingTimeTimers() > 0) {
                fired = timers.advanceProcessingTime(clock.millis(), processingTimeDispatch);
            }
        } finally {
            publish();
        }
        drained += fired;
        if (drained > 0) {
            endOfBatch(drained);
        }
        failures.throwIfAny(); // the batch is complete: the error handler decides whether the shard goes on
        if (drained == 0 && inbox.isClosedAndDrained()) {
            if (finalWatermark != Long.MIN_VALUE && !abandoned) {
                advanceTo(finalWatermark);
                if (finalWatermark == Long.MAX_VALUE) {
                    // end of input: processing-time patterns flush too
                    timers.advanceProcessingTime(Long.MAX_VALUE, processingTimeDispatch);
                }
            }
            publish();
            endOfBatch(0);
            failures.throwIfAny(); // not finished yet: if the shard goes on, the next cycle finishes it
            finished = true;
            onFinished.run();
            return 1;
        }
        return drained;
    }

    private void publish() {
        long late = 0;
        long dead = 0;
        long matches = 0;
        long timeouts = 0;
        long partial = 0;
        long buffered = 0;
        long entries = 0;
        for (int i = 0; i < operators.size(); i++) {
            ShardOperator<T> op = operators.get(i);
            op.endOfBatch();
            late += op.lateEvents();
            dead += op.deadLetters();
            matches += op.matches();
            timeouts += op.timeouts();
            partial += op.partialMatches();
            buffered += op.bufferedEvents();
            entries += op.bufferedEntries();
        }
        published.lazySet(EVENTS, events);
        published.lazySet(LATE, late);
        published.lazySet(DEAD, dead);
        published.lazySet(MATCHES, matches);
        published.lazySet(TIMEOUTS, timeouts);
        published.lazySet(PARTIAL, partial);
        published.lazySet(BUFFERED, buffered);
        published.lazySet(ENTRIES, entries);
        published.lazySet(KEYS, keys.size());
        published.lazySet(WATERMARK, watermark);
    }

    /** @return the counters published at the end of the latest batch; any thread may call it */
    public ShardMetrics metrics() {
        return new ShardMetrics(index, published.get(EVENTS), published.get(LATE), published.get(DEAD),
                published.get(MATCHES), published.get(TIMEOUTS), published.get(PARTIAL), published.get(BUFFERED),
                published.get(ENTRIES), published.get(KEYS), published.get(WATERMARK), inbox.size());
    }

    /** Receives a shard's part of a snapshot, on the shard thread. */
    @FunctionalInterface
    public interface SnapshotPart {
        /**
         * @param shard the shard's number
         * @param id    the snapshot id
         * @param state the shard's state, as {@link #writeState} writes it
         */
        void accept(int shard, long id, byte[] state);
    }

    private static final long NO_BARRIER = Long.MIN_VALUE;
    private long barrier = NO_BARRIER;
    private boolean[] aligned = new boolean[0];
    private int alignedCount;
    private final java.util.ArrayDeque<ShardRecord> heldBack = new java.util.ArrayDeque<>();
    private SnapshotPart snapshotPart;
    private io.cepheus.nfa.EventCodec<T> eventCodec;
    private io.cepheus.nfa.EventCodec<Object> keyCodec;

    /** Enables live snapshots (setup, before the shard runs): where parts go and how to write events and keys. */
    public void snapshots(SnapshotPart part, io.cepheus.nfa.EventCodec<T> events,
            io.cepheus.nfa.EventCodec<Object> keys) {
        this.snapshotPart = java.util.Objects.requireNonNull(part, "part");
        this.eventCodec = java.util.Objects.requireNonNull(events, "events");
        this.keyCodec = java.util.Objects.requireNonNull(keys, "keys");
    }

    @Override
    @SuppressWarnings("unchecked")
    public void accept(ShardRecord record) {
        if (barrier != NO_BARRIER && heldBackFrom(record)) {
            heldBack.add(record); // after its producer's barrier: waits until the snapshot is written
            return;
        }
        heard(record.producer());
        if (record instanceof ShardRecord.Barrier b) {
            onBarrier(b);
            return;
        }
        if (record instanceof ShardRecord.Event e) {
            events++;
            for (int i = 0; i < operators.size(); i++) {
                operators.get(i).processElement(e.key(), (T) e.event(), e.timestamp());
            }
        } else if (record instanceof ShardRecord.Watermark w) {
            advanceTo(valve.onWatermark(w.producer(), w.watermark()));
            if (barrier != NO_BARRIER) {
                completeSnapshotIfAligned(); // a producer that closed counts as aligned
            }
        } else if (record instanceof ShardRecord.Idleness idle) {
            advanceTo(idle.idle() ? valve.onIdle(idle.producer()) : valve.onActive(idle.producer()));
        }
    }

    private boolean heldBackFrom(ShardRecord record) {
        return aligned[record.producer()];
    }


    /**
     * Aligns barriers (as Flink's aligned checkpoints): a producer's records after its barrier are held back
     * until every live producer's barrier has arrived; then the shard writes its state and replays them.
     */
    private void onBarrier(ShardRecord.Barrier b) {
        if (snapshotPart == null) {
            throw new IllegalStateException("snapshot barrier " + b.id() + " reached shard " + index
                    + ", but the engine has no snapshot codecs (Builder.snapshots)");
        }
        if (barrier == NO_BARRIER) {
            barrier = b.id();
            if (aligned.length < valve.inputCount()) {
                aligned = new boolean[valve.inputCount()];
            }
        } else if (b.id() != barrier) {
            throw new IllegalStateException("shard " + index + " is aligning snapshot " + barrier + " but producer "
                    + b.producer() + " sent barrier " + b.id() + ": every producer must checkpoint the same ids in"
                    + " the same order, one snapshot at a time");
        }
        aligned[b.producer()] = true;
        alignedCount++;
        completeSnapshotIfAligned();
    }

    /** Writes the snapshot once every live producer's barrier is in; replays what was held back. */
    private void completeSnapshotIfAligned() {
        int closed = 0;
        for (int i = 0; i < valve.inputCount(); i++) {
            // a closed producer (watermark at the end of time) sends nothing more: it counts as aligned
            if (!aligned[i] && valve.watermarkOf(i) == Long.MAX_VALUE) {
                closed++;
            }
        }
        if (alignedCount + closed < valve.inputCount()) {
            return;
        }
        long id = barrier;
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            writeShard(out, eventCodec, keyCodec);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("shard " + index + " could not write snapshot " + id, e);
        }
        barrier = NO_BARRIER;
        java.util.Arrays.fill(aligned, false);
        alignedCount = 0;
        snapshotPart.accept(index, id, bytes.toByteArray());
        java.util.List<ShardRecord> replay = new java.util.ArrayList<>(heldBack);
        heldBack.clear();
        for (ShardRecord r : replay) {
            accept(r);
        }
    }

    private void advanceTo(long combined) {
        if (combined == WatermarkValve.NO_ADVANCE || combined <= watermark) {
            return;
        }
        watermark = combined;
        // every operator releases its events first, then the shared timers fire once, each to its operator
        for (int i = 0; i < operators.size(); i++) {
            operators.get(i).beginWatermark(combined);
        }
        timers.advanceWatermark(combined, timerDispatch);
        for (int i = 0; i < operators.size(); i++) {
            operators.get(i).endWatermark();
        }
    }

    /** Writes the shard's state for a snapshot; only between batches, with an empty inbox. */
    public void writeState(java.io.DataOutput out, io.cepheus.nfa.EventCodec<T> eventCodec,
            io.cepheus.nfa.EventCodec<Object> keyCodec) throws java.io.IOException {
        if (inbox.size() != 0) {
            throw new IllegalStateException("shard " + index + " still has " + inbox.size() + " records queued");
        }
        writeShard(out, eventCodec, keyCodec);
    }

    private void writeShard(java.io.DataOutput out, io.cepheus.nfa.EventCodec<T> eventCodec,
            io.cepheus.nfa.EventCodec<Object> keyCodec) throws java.io.IOException {
        out.writeLong(watermark);
        out.writeLong(events);
        out.writeInt(valve.inputCount());
        for (int i = 0; i < valve.inputCount(); i++) {
            out.writeLong(valve.watermarkOf(i));
            out.writeBoolean(valve.isIdle(i));
        }
        keys.writeTo(out, keyCodec); // first: restored operators then find their keys under the same ids
        out.writeInt(operators.size());
        for (ShardOperator<T> op : operators) {
            op.writeState(out, eventCodec, keyCodec);
        }
    }

    /** Restores a shard written by {@link #writeState} (same producers and operators registered). */
    public void readState(java.io.DataInput in, io.cepheus.nfa.EventCodec<T> eventCodec,
            io.cepheus.nfa.EventCodec<Object> keyCodec) throws java.io.IOException {
        long savedWatermark = in.readLong();
        events = in.readLong();
        int inputs = in.readInt();
        if (inputs != valve.inputCount()) {
            throw new java.io.IOException("the snapshot has " + inputs + " producers at shard " + index
                    + ", this engine " + valve.inputCount());
        }
        for (int i = 0; i < inputs; i++) {
            long w = in.readLong();
            boolean idle = in.readBoolean();
            if (w != Long.MIN_VALUE) {
                valve.onWatermark(i, w);
            }
            if (idle) {
                valve.onIdle(i);
            }
        }
        watermark = savedWatermark;
        timers.advanceWatermark(savedWatermark, timerDispatch); // nothing registered yet: sets the time only
        keys.readFrom(in, keyCodec);
        int ops = in.readInt();
        if (ops != operators.size()) {
            throw new java.io.IOException("the snapshot has " + ops + " patterns, this engine " + operators.size());
        }
        for (ShardOperator<T> op : operators) {
            op.readState(in, eventCodec, keyCodec);
        }
        publish();
    }

    private volatile boolean abandoned;
    private io.cepheus.runtime.EndOfBatchListener endOfBatchListener;

    /** Sets who is told when a batch is complete (setup, before the shard runs). */
    public void endOfBatchListener(io.cepheus.runtime.EndOfBatchListener listener) {
        this.endOfBatchListener = java.util.Objects.requireNonNull(listener, "listener");
    }

    private void endOfBatch(int records) {
        if (endOfBatchListener == null) {
            return;
        }
        try {
            endOfBatchListener.onEndOfBatch(index, records);
        } catch (RuntimeException e) {
            failures.report(new io.cepheus.runtime.UserCodeException("end-of-batch listener", "shard " + index, null,
                    watermark, e));
        }
    }

    /**
     * The engine stopped because of a failure (another shard's, or this one's): once its inbox is drained the
     * shard finishes without the final watermark, so a failed engine does not flush results as if its input had
     * ended. Any thread.
     */
    public void abandon() {
        abandoned = true;
    }

    /** @return whether the inbox was closed, drained and the final watermark applied */
    public boolean isFinished() {
        return finished;
    }

    /** @return events received so far */
    public long events() {
        return events;
    }

    /** @return the shard's current watermark */
    @Override
    public long watermark() {
        return watermark;
    }

    @Override
    public String roleName() {
        return "cepheus-shard-" + index;
    }
}

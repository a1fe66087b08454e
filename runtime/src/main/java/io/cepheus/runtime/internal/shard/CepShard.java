package io.cepheus.runtime.internal.shard;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.EndOfBatchListener;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.UserCodeException;
import io.cepheus.runtime.internal.agent.Agent;
import io.cepheus.runtime.internal.cep.SharedEventBuffer;
import io.cepheus.runtime.internal.queue.ShardInbox;
import io.cepheus.runtime.internal.time.WatermarkValve;
import io.cepheus.runtime.internal.timer.TimerService;
import io.cepheus.runtime.time.Clock;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * One shard of the engine, as an {@link Agent}: each duty cycle ({@link #doWork()}) drains a batch of records
 * from its inbox and applies them in order to the operators registered on it (CEP patterns, windows, joins), fires
 * the processing-time timers that came due, and publishes the shard's counters ({@link ShardCounters}). The
 * shard's watermark is the one its producers give it ({@link ProducerWatermarks}: the minimum over the active
 * ones, silent ones left out), applied the moment it advances, so an event behind it in the queue is judged
 * against it; a watermark reaches the operators in the three steps {@link ShardOperator} describes. Snapshot
 * barriers are aligned across the producers ({@link BarrierAlignment}) before the shard writes its part.
 *
 * <p>Owned by one thread: the shard's worker in production, the caller's through an
 * {@link io.cepheus.runtime.internal.agent.AgentInvoker} in tests. The key dictionary, timer service and operators belong
 * to that thread too; only the inbox is shared (many producers, this one consumer), and the published counters
 * are read by any thread.
 *
 * @param <T> the event type
 */
public final class CepShard<T> implements Agent, ShardContext<T>, Consumer<ShardRecord> {

    private final int index;
    private final ShardInbox<ShardRecord> inbox;
    private final int batchSize;
    private final ShardOperators<T> operators = new ShardOperators<>();
    private final KeyDictionary keys = operators.keys();
    private final TimerService timers = operators.timers();
    private final ProducerWatermarks producers = new ProducerWatermarks();
    private final BarrierAlignment alignment = new BarrierAlignment();
    private final ShardCounters counters;
    private final LongConsumer advance = this::advanceTo;
    private final UserFailures failures = new UserFailures();
    private Clock clock;
    private CachedClock producersClock;
    private long events;
    /** Events received per producer input: where a control record falls in each producer's input. */
    private long[] eventsFrom = new long[0];
    private long watermark = Long.MIN_VALUE;
    private volatile boolean finished;
    private final long finalWatermark;
    private Runnable onFinished = () -> { };
    private SnapshotPart snapshotPart;
    private EventCodec<T> eventCodec;
    private EventCodec<Object> keyCodec;
    private EndOfBatchListener endOfBatchListener;
    /** Set by any thread when the engine stopped on a failure: finish without the final watermark. */
    private volatile boolean abandoned;

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
        this.counters = new ShardCounters(index);
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public Clock clock() {
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

    /**
     * @param tieBreaker how the patterns order events of equal timestamp (null: arrival order only)
     * @return the event-time buffer the shard's patterns with this tie-breaker share (setup, before the shard runs)
     */
    @Override
    public SharedEventBuffer<T> patternBuffer(Comparator<? super T> tieBreaker) {
        return operators.patternBuffer(tieBreaker);
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
        this.onFinished = Objects.requireNonNull(callback, "callback");
    }

    /**
     * Registers an operator (setup, before the shard runs). Its id must equal its position (0, 1, 2 ...):
     * the shard hands each fired timer to the operator whose id is the timer's namespace.
     */
    public void add(ShardOperator<T> operator) {
        operators.add(operator);
    }

    /**
     * Makes every duty cycle refresh the producers' cached clock (setup, before the shard runs), so their sends
     * see the time at most one duty cycle old.
     */
    public void refreshes(CachedClock producersClock) {
        this.producersClock = Objects.requireNonNull(producersClock, "producersClock");
    }

    /**
     * Gives the shard the clock its processing-time timers follow (setup, before the shard runs); without one,
     * processing-time timers never fire.
     */
    public void processingTimeClock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Leaves a producer out of the watermark when it has sent nothing at all (to any shard) for {@code millis} of
     * the processing-time clock, until it sends again (setup, before the shard runs); see
     * {@link ProducerWatermarks}.
     *
     * @param activity per producer input index, the clock time of its latest send (written by the producers)
     * @param millis   the timeout
     */
    public void silentProducerTimeout(AtomicLong[] activity, long millis) {
        producers.silentProducerTimeout(activity, millis);
    }

    /** Leaves out producers silent for the timeout, takes back the ones that spoke; not during alignment. */
    private void checkSilentProducers() {
        if (producers.watchesSilence() && clock != null && !alignment.isAligning()) {
            producers.checkSilence(clock.millis(), advance);
        }
    }

    /** Registers a producer (setup, before the shard runs). @return its input index at this shard */
    public int addProducer() {
        int input = producers.addProducer();
        eventsFrom = java.util.Arrays.copyOf(eventsFrom, Math.max(eventsFrom.length, input + 1));
        return input;
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
                fired = operators.advanceProcessingTime(clock.millis());
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
            abortAlignment();
            if (finalWatermark != Long.MIN_VALUE && !abandoned) {
                advanceTo(finalWatermark);
                if (finalWatermark == Long.MAX_VALUE) {
                    // end of input: processing-time patterns flush too
                    operators.advanceProcessingTime(Long.MAX_VALUE);
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
        counters.publish(operators.all(), events, keys.size(), watermark);
    }

    /** @return the counters published at the end of the latest batch; any thread may call it */
    public ShardMetrics metrics() {
        return counters.metrics(operators.all(), inbox.size());
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

    /** Enables live snapshots (setup, before the shard runs): where parts go and how to write events and keys. */
    public void snapshots(SnapshotPart part, EventCodec<T> events,
            EventCodec<Object> keys) {
        this.snapshotPart = Objects.requireNonNull(part, "part");
        this.eventCodec = Objects.requireNonNull(events, "events");
        this.keyCodec = Objects.requireNonNull(keys, "keys");
    }

    @Override
    @SuppressWarnings("unchecked")
    public void accept(ShardRecord record) {
        if (record instanceof ShardRecord.Control c) {
            control(c); // from the engine, not a producer; never during an alignment (the engine waits for snapshots)
            return;
        }
        if (record instanceof ShardRecord.Query q) {
            answer(q); // reads state only: answered at once, whether or not an alignment holds producers back
            return;
        }
        if (alignment.holdsBack(record)) {
            return; // after its producer's barrier: waits until the snapshot is written
        }
        advanceTo(producers.heard(record.producer()));
        if (record instanceof ShardRecord.Event e) {
            events++;
            eventsFrom[e.producer()]++;
            operators.processElement(e.key(), (T) e.event(), e.timestamp());
        } else if (record instanceof ShardRecord.Watermark w) {
            advanceTo(producers.onWatermark(w.producer(), w.watermark()));
            if (alignment.isAligning()) {
                completeSnapshotIfAligned(); // a producer that closed counts as aligned
            }
        } else if (record instanceof ShardRecord.Idleness idle) {
            advanceTo(producers.onIdleness(idle.producer(), idle.idle()));
        } else if (record instanceof ShardRecord.Barrier b) {
            onBarrier(b);
        }
    }

    private void answer(ShardRecord.Query q) {
        try {
            q.answer().complete(((KeyInspection) operators.get(q.operatorId())).inspect(q.key(), q.question()));
        } catch (RuntimeException e) {
            q.answer().completeExceptionally(e);
        }
    }

    private void control(ShardRecord.Control c) {
        java.util.List<Long> perProducer = new java.util.ArrayList<>(eventsFrom.length);
        java.util.List<Long> watermarks = new java.util.ArrayList<>(eventsFrom.length);
        for (int p = 0; p < eventsFrom.length; p++) {
            perProducer.add(eventsFrom[p]);
            watermarks.add(producers.watermarkOf(p));
        }
        ((ControlTarget) operators.get(c.operatorId())).onControl(c.command(),
                new io.cepheus.runtime.rules.RuleChange.ShardCut(index, events, watermark, perProducer, watermarks));
    }

    private void onBarrier(ShardRecord.Barrier b) {
        if (snapshotPart == null) {
            throw new IllegalStateException("snapshot barrier " + b.id() + " reached shard " + index
                    + ", but the engine has no snapshot codecs (Builder.snapshots)");
        }
        alignment.onBarrier(index, b, producers.count());
        completeSnapshotIfAligned();
    }

    /**
     * The input ended while a snapshot's barriers were being aligned: some producer never marked the cut, so the
     * snapshot is not taken, and what was held back behind the others' barriers is applied now, as the input it is
     * (a held-back record may itself be the next snapshot's barrier: that alignment cannot complete either).
     */
    private void abortAlignment() {
        while (alignment.isAligning()) {
            for (ShardRecord r : alignment.finish()) {
                accept(r);
            }
        }
    }

    /** Writes the snapshot once every live producer's barrier is in; replays what was held back. */
    private void completeSnapshotIfAligned() {
        if (!alignment.isComplete(producers)) {
            return;
        }
        long id = alignment.snapshotId();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeShard(out, eventCodec, keyCodec);
        } catch (IOException e) {
            throw new UncheckedIOException("shard " + index + " could not write snapshot " + id, e);
        }
        List<ShardRecord> replay = alignment.finish();
        snapshotPart.accept(index, id, bytes.toByteArray());
        for (ShardRecord r : replay) {
            accept(r);
        }
    }

    private void advanceTo(long combined) {
        if (combined == WatermarkValve.NO_ADVANCE || combined <= watermark) {
            return;
        }
        watermark = combined;
        operators.advanceWatermark(combined);
    }

    /** Writes the shard's state for a snapshot; only between batches, with an empty inbox. */
    public void writeState(DataOutput out, EventCodec<T> eventCodec,
            EventCodec<Object> keyCodec) throws IOException {
        if (inbox.size() != 0) {
            throw new IllegalStateException("shard " + index + " still has " + inbox.size() + " records queued");
        }
        writeShard(out, eventCodec, keyCodec);
    }

    private void writeShard(DataOutput out, EventCodec<T> eventCodec,
            EventCodec<Object> keyCodec) throws IOException {
        out.writeLong(watermark);
        out.writeLong(events);
        out.writeInt(eventsFrom.length);
        for (long n : eventsFrom) {
            out.writeLong(n);
        }
        producers.writeTo(out);
        keys.writeTo(out, keyCodec); // first: restored operators then find their keys under the same ids
        out.writeInt(operators.size());
        for (ShardOperator<T> op : operators.all()) {
            op.writeState(out, eventCodec, keyCodec);
        }
    }

    /** Restores a shard written by {@link #writeState} (same producers and operators registered). */
    public void readState(DataInput in, EventCodec<T> eventCodec,
            EventCodec<Object> keyCodec) throws IOException {
        long savedWatermark = in.readLong();
        events = in.readLong();
        int inputs = in.readInt();
        if (inputs != eventsFrom.length) {
            throw new IOException("shard " + index + " of the snapshot had " + inputs + " producers, this engine's "
                    + eventsFrom.length);
        }
        for (int i = 0; i < inputs; i++) {
            eventsFrom[i] = in.readLong();
        }
        producers.readFrom(in, index);
        watermark = savedWatermark;
        operators.restoreWatermark(savedWatermark);
        keys.readFrom(in, keyCodec);
        int ops = in.readInt();
        if (ops != operators.size()) {
            throw new IOException("the snapshot has " + ops + " patterns, this engine " + operators.size());
        }
        for (ShardOperator<T> op : operators.all()) {
            op.readState(in, eventCodec, keyCodec);
            if (op instanceof KeyedOperator<T> keyed && keyed.watermark > watermark) {
                // an operator only ever sees the shard's watermarks
                throw new IOException("operator " + op.operatorId() + " of shard " + index + " is at watermark "
                        + keyed.watermark + ", after the shard's " + watermark);
            }
        }
        publish();
    }

    /**
     * Restores this shard of an engine with another number of shards than the snapshot's: reads every old shard's
     * part in turn and keeps the keys {@code scope} routes here (rescaling). The old shards must be at one
     * watermark, as the shards of a snapshot taken at aligned barriers are; each producer's watermark is the
     * highest any part had, and it is idle only if idle in every part.
     *
     * @param parts the old shards' parts, in shard order
     */
    public void readRescaled(DataInput[] parts, EventCodec<T> eventCodec, EventCodec<Object> keyCodec,
            RestoreScope scope) throws IOException {
        long[] producerWatermarks = new long[producers.producerCount()];
        java.util.Arrays.fill(producerWatermarks, Long.MIN_VALUE);
        boolean[] producerIdle = new boolean[producerWatermarks.length];
        java.util.Arrays.fill(producerIdle, true);
        for (int p = 0; p < parts.length; p++) {
            DataInput in = parts[p];
            long partWatermark = in.readLong();
            if (p == 0) {
                watermark = partWatermark;
                operators.restoreWatermark(partWatermark);
            } else if (partWatermark != watermark) {
                throw new IOException("the snapshot's shards are at different watermarks (shard 0 at " + watermark
                        + ", shard " + p + " at " + partWatermark + "): it restores only into " + parts.length
                        + " shards");
            }
            events = scope.counted(events, in.readLong());
            int inputs = in.readInt();
            if (inputs != eventsFrom.length) {
                throw new IOException("shard " + p + " of the snapshot had " + inputs + " producers, this engine's "
                        + eventsFrom.length);
            }
            for (int i = 0; i < inputs; i++) {
                eventsFrom[i] = scope.counted(eventsFrom[i], in.readLong());
            }
            producers.readMerged(in, p, producerWatermarks, producerIdle);
            KeyDictionary.skip(in, keyCodec);
            int ops = in.readInt();
            if (ops != operators.size()) {
                throw new IOException("the snapshot has " + ops + " patterns, this engine " + operators.size());
            }
            for (ShardOperator<T> op : operators.all()) {
                op.readState(in, eventCodec, keyCodec, scope);
            }
            if (parts[p] instanceof java.io.InputStream stream && stream.available() > 0) {
                throw new IOException("shard " + p + "'s part has " + stream.available() + " bytes left after its"
                        + " state was read");
            }
        }
        for (ShardOperator<T> op : operators.all()) {
            op.finishRestore(eventCodec, keyCodec, scope);
        }
        producers.restoreMerged(producerWatermarks, producerIdle);
        for (ShardOperator<T> op : operators.all()) {
            if (op instanceof KeyedOperator<T> keyed && keyed.watermark > watermark) {
                throw new IOException("operator " + op.operatorId() + " is at watermark " + keyed.watermark
                        + ", after the shards' " + watermark);
            }
        }
        publish();
    }

    /** Sets who is told when a batch is complete (setup, before the shard runs). */
    public void endOfBatchListener(EndOfBatchListener listener) {
        this.endOfBatchListener = Objects.requireNonNull(listener, "listener");
    }

    private void endOfBatch(int records) {
        if (endOfBatchListener == null) {
            return;
        }
        try {
            endOfBatchListener.onEndOfBatch(index, records);
        } catch (RuntimeException e) {
            failures.report(new UserCodeException("end-of-batch listener", "shard " + index, null,
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

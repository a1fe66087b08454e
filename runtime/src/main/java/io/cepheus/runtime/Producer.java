package io.cepheus.runtime;

import io.cepheus.runtime.internal.queue.ShardInbox;
import io.cepheus.runtime.internal.shard.CachedClock;
import io.cepheus.runtime.internal.shard.ShardRecord;
import io.cepheus.runtime.time.Clock;
import io.cepheus.runtime.time.TimestampAssigner;
import io.cepheus.runtime.time.WatermarkGenerator;
import io.cepheus.runtime.time.WatermarkOutput;
import java.util.ArrayDeque;
import java.util.function.Function;

/**
 * One source of events for an engine, used by one thread at a time. Each event is stamped with its event
 * time, routed by key to its shard's inbox, and observed by this source's watermark generator; the source's
 * watermarks follow its events in-band into every shard, so a shard never sees a watermark before the events
 * it covers. A shard's watermark is the minimum over its sources; an idle source does not hold it back.
 *
 * <p>Periodic watermarks (Flink's auto-watermark interval) are emitted on the engine's schedule: from
 * {@link #send} when the interval has passed on the engine's clock, and, while the source is quiet, by the engine
 * itself (a thread of its own, or {@link CepTestHarness#runUntilIdle()}), so a generator that reads the clock
 * advances event time, or marks the source idle, without another send. {@link #tick()} emits at once if the
 * interval has passed. Under the system clock a send reads a cached time that the shards' duty cycles refresh,
 * and the producer itself on every 64th send (a clock call costs more than the rest of a send on some virtual
 * machines); a test's manual clock is read directly. With
 * {@link io.cepheus.runtime.time.WatermarkStrategy#withIdleness idleness} configured, the shards also mark a
 * source idle on their own once nothing has come from it for the timeout, so a silent source never holds the
 * watermark back forever.
 *
 * <p>Not thread-safe: one producer per producing thread ({@link CepEngine#newProducer()}). Its watermark generator
 * is called by one thread at a time: the producer's, or the engine's for a periodic emit while the producer is in
 * no call. Each call of a producer whose generator can emit takes the producer over with one compare-and-set and
 * waits only while the engine runs such an emit; a call made while another thread is in one is refused.
 *
 * @param <T> the event type
 */
public final class Producer<T> implements AutoCloseable {

    private final CepEngine<T> engine;
    private final ShardInbox<ShardRecord>[] inboxes;
    private final int[] inputAtShard;
    private final Function<? super T, ?> keySelector;
    private final TimestampAssigner<T> assigner;
    private final WatermarkGenerator<T> generator;
    private final Clock clock;
    /** The system clock as a cached value the shards refresh ({@link CachedClock}); null for other clocks. */
    private final CachedClock cachedClock;
    private int readsSinceRefresh;
    private final long interval;
    private final boolean block;
    private final Broadcast broadcast = new Broadcast();
    /** How this producer waits for room in a full inbox; one instance, reused (no allocation per wait). */
    private final io.cepheus.runtime.agent.IdleStrategy backoff = io.cepheus.runtime.agent.IdleStrategy.backoff(
            ShardInbox.PUT_MAX_SPINS, ShardInbox.PUT_MAX_YIELDS, ShardInbox.PUT_MIN_PARK_NANOS,
            ShardInbox.PUT_MAX_PARK_NANOS);
    /** The clock time of this source's latest send, for the shards' silence detection (written here only). */
    private final java.util.concurrent.atomic.AtomicLong lastActive = new java.util.concurrent.atomic.AtomicLong();
    private long nextPeriodicEmit;
    /** {@link #nextPeriodicEmit} as the engine's schedule reads it, without taking the producer over. */
    private volatile long periodicDue;
    /**
     * Who is using the producer: {@link #FREE}, {@link #PRODUCER} (in a call) or {@link #ENGINE} (in a periodic
     * emit of the engine's schedule); only when {@link #handOff} is set.
     */
    @SuppressWarnings("unused") // through OWNER
    private volatile int owner;
    private static final int FREE = 0;
    private static final int PRODUCER = 1;
    private static final int ENGINE = 2;
    private static final java.lang.invoke.VarHandle OWNER;

    static {
        try {
            OWNER = java.lang.invoke.MethodHandles.lookup().findVarHandle(Producer.class, "owner", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Whether the engine's schedule emits for this producer (its generator can emit): calls then take it over. */
    private final boolean handOff;
    private long lastWatermark = Long.MIN_VALUE;
    private boolean idle;
    private boolean closed;
    /**
     * Under {@link BackpressurePolicy#REJECT}, per shard, the watermarks, idleness changes and barriers that found
     * its inbox full, in order: they go out, ahead of anything else for that shard, with this producer's next
     * call, so no call waits and none of them is lost. Null until a shard first needs it.
     */
    private ArrayDeque<ShardRecord>[] pendingControl;
    private int shardsWithPendingControl;
    /** True while a record goes to every shard's inbox ({@link #toAllShards}); read by a rule change being sent. */
    private volatile boolean broadcasting;

    Producer(CepEngine<T> engine, ShardInbox<ShardRecord>[] inboxes, int[] inputAtShard,
            Function<? super T, ?> keySelector, TimestampAssigner<T> assigner, WatermarkGenerator<T> generator,
            Clock clock, CachedClock cachedClock, long interval, boolean block, boolean handOff) {
        this.engine = engine;
        this.inboxes = inboxes;
        this.inputAtShard = inputAtShard;
        this.keySelector = keySelector;
        this.assigner = assigner;
        this.generator = generator;
        this.clock = clock;
        this.cachedClock = cachedClock;
        this.interval = interval;
        this.block = block;
        this.handOff = handOff;
        this.nextPeriodicEmit = saturatedAdd(clock.millis(), interval);
        this.periodicDue = nextPeriodicEmit;
    }

    private static long saturatedAdd(long time, long interval) {
        long sum = time + interval;
        return ((time ^ sum) & (interval ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    /** Takes the producer over for one of its calls; waits only while the engine runs its periodic emit. */
    private void acquire() {
        if (!OWNER.compareAndSet(this, FREE, PRODUCER)) {
            waitForTheEngine();
        }
    }

    private void waitForTheEngine() {
        backoff.reset();
        while (true) {
            int o = (int) OWNER.getVolatile(this);
            if (o == PRODUCER) {
                throw new IllegalStateException("this producer is in a call on another thread (or this call came"
                        + " from its own watermark generator): a producer is used by one thread at a time");
            }
            if (o == FREE && OWNER.compareAndSet(this, FREE, PRODUCER)) {
                return;
            }
            backoff.idle(0);
        }
    }

    private void release() {
        OWNER.setRelease(this, FREE);
    }

    /**
     * Sends an event whose timestamp the engine's timestamp assigner extracts.
     *
     * @param event the event, not null
     * @return true if sent; false only under {@link BackpressurePolicy#REJECT} when its shard's inbox is full, or
     *     still holds back this producer's earlier watermark or barrier for that shard (nothing was sent, and the
     *     watermark generator did not see it: send it again)
     */
    public boolean send(T event) {
        return send(event, TimestampAssigner.NO_TIMESTAMP);
    }

    /**
     * Sends an event with a record timestamp, for assigners that use it (the default assigner takes it as the
     * event time).
     *
     * @param event           the event, not null
     * @param recordTimestamp the record's timestamp
     * @return as {@link #send(Object)}
     */
    public boolean send(T event, long recordTimestamp) {
        if (!handOff) {
            return sendOwned(event, recordTimestamp);
        }
        acquire();
        try {
            return sendOwned(event, recordTimestamp);
        } finally {
            release();
        }
    }

    private boolean sendOwned(T event, long recordTimestamp) {
        checkOpen();
        if (!engine.isStarted()) {
            Throwable startFailure = engine.startFailure();
            if (startFailure != null) {
                throw new IllegalStateException("the engine is not started: its start() failed ("
                        + startFailure.getMessage() + ")", startFailure);
            }
            throw new IllegalStateException("the engine is not started: call start() (or CepTestHarness.start)"
                    + " before sending, or sends would wait for workers that do not run");
        }
        if (event == null) {
            throw new NullPointerException("event must not be null");
        }
        long ts = assigner.extractTimestamp(event, recordTimestamp);
        if (ts == TimestampAssigner.NO_TIMESTAMP) {
            throw new IllegalArgumentException("event " + event + " has no timestamp: give the engine's"
                    + " WatermarkStrategy a timestamp assigner, or send it with a record timestamp");
        }
        Object key = keySelector.apply(event);
        if (key == null) {
            throw new NullPointerException("the key selector returned null for event " + event);
        }
        int shard = CepEngine.shardOf(key, inboxes.length);
        ShardRecord record = new ShardRecord.Event(inputAtShard[shard], key, event, ts);
        if ((engine.injection() & 1) != 0) {
            engine.awaitInjection(); // a rule change is being put into the inboxes: all before it or all after it
        }
        try {
            if (!block) {
                if (shardsWithPendingControl > 0 && !deliverPending(shard) || !inboxes[shard].offer(record)) {
                    return false; // behind this producer's watermark or barrier for that shard: not before it
                }
            } else if (engine.isDrivenByCaller()) {
                if (!inboxes[shard].offer(record)) {
                    throw fullInboxOfCallerDrivenEngine(shard, "event " + event);
                }
            } else {
                inboxes[shard].put(record, backoff);
            }
        } catch (IllegalStateException closed) {
            throw namingTheFailure(closed);
        }
        // the event is in: whatever follows must not make the send look failed, or a caller retrying it duplicates it
        try {
            generator.onEvent(event, ts, broadcast);
            long now = sendTime();
            if (lastActive.getPlain() != now) {
                lastActive.lazySet(now); // an ordered store, once per clock tick: shards read it to detect silence
            }
            emitPeriodic(now);
        } catch (IllegalStateException closedMeanwhile) {
            if (!engine.isClosing() && engine.failure().isEmpty()) {
                throw closedMeanwhile;
            }
            // the engine closed (or stopped) after the event was enqueued: the event is delivered, this source's
            // watermark no longer matters (a closing engine flushes, a stopped one takes no more input)
        }
        return true;
    }

    /** @return the clock's time for a send: the cached system time, refreshed here on every 64th read */
    private long sendTime() {
        if (cachedClock == null) {
            return clock.millis();
        }
        if (++readsSinceRefresh == CachedClock.REFRESH_EVERY) {
            readsSinceRefresh = 0;
            return cachedClock.refresh();
        }
        return cachedClock.millis();
    }

    /**
     * Emits periodic watermarks if the interval has passed on the engine's clock; call it while the source is
     * quiet, so idleness is detected and shards are not held back.
     */
    public void tick() {
        if (handOff) {
            acquire();
        }
        try {
            checkOpen();
            deliverAllPending();
            emitPeriodic(clock.millis());
        } finally {
            if (handOff) {
                release();
            }
        }
    }

    private void emitPeriodic(long now) {
        if (now >= nextPeriodicEmit) {
            // the next time first: a generator that throws is called again an interval later, not at every cycle
            nextPeriodicEmit = saturatedAdd(now, interval);
            if (handOff) {
                periodicDue = nextPeriodicEmit;
            }
            generator.onPeriodicEmit(broadcast);
        }
    }

    /** @return whether the engine's schedule may have a periodic emit to run for this producer at {@code now} */
    boolean periodicEmitDue(long now) {
        return handOff && now >= periodicDue;
    }

    /**
     * Runs this producer's periodic emit for the engine's schedule, on the engine's thread, if the interval has
     * passed and the producer is in no call (it is then skipped: its call emits if due). Records this producer
     * could not enqueue earlier go first, as in any of its calls.
     *
     * @return 1 if the generator was called, else 0
     */
    int emitPeriodicOnSchedule(long now) {
        if (!OWNER.compareAndSet(this, FREE, ENGINE)) {
            return 0;
        }
        try {
            if (closed || now < nextPeriodicEmit) {
                return 0;
            }
            deliverAllPending();
            long before = lastWatermark;
            emitPeriodic(now);
            if (lastWatermark != before && lastActive.getPlain() < now) {
                lastActive.lazySet(now); // a source that sends time is alive
            }
            return 1;
        } catch (IllegalStateException closedMeanwhile) {
            if (engine.isClosing() || engine.failure().isPresent()) {
                return 0; // the engine closed or stopped: this source's watermark no longer matters
            }
            throw closedMeanwhile;
        } finally {
            release();
        }
    }

    /**
     * Sends an explicit watermark: this source will send no event at or before {@code watermark}.
     *
     * @param watermark the watermark; not above the last one sent is ignored
     */
    public void watermark(long watermark) {
        if (handOff) {
            acquire();
        }
        try {
            checkOpen();
            deliverAllPending();
            lastActive.lazySet(clock.millis()); // a source that sends time is alive
            broadcast.emitWatermark(watermark);
        } finally {
            if (handOff) {
                release();
            }
        }
    }

    /**
     * Marks a consistent cut of this source's input for snapshot {@code id}: every shard writes its state once
     * it has this barrier from every live producer (records sent after it wait meanwhile), and the engine hands
     * the assembled snapshot to {@link CepEngine#onSnapshot}. Every producer must call it with the same id.
     *
     * @param id the snapshot id
     * @throws IllegalStateException if the engine has no snapshot codecs ({@link CepEngine.Builder#snapshots}), before
     *                               anything is sent
     */
    public void checkpoint(long id) {
        if (handOff) {
            acquire();
        }
        try {
            checkOpen();
            if (!engine.snapshotsEnabled()) {
                throw new IllegalStateException("checkpoint(" + id + ") needs snapshot codecs: build the engine with"
                        + " Builder.snapshots(eventCodec, keyCodec)");
            }
            deliverAllPending();
            engine.checkpointStarting(id);
            toAllShards(s -> new ShardRecord.Barrier(inputAtShard[s], id));
        } finally {
            if (handOff) {
                release();
            }
        }
    }

    /** Ends this source: its watermark becomes {@code Long.MAX_VALUE}, so it holds no shard back any more. */
    @Override
    public void close() {
        if (handOff) {
            acquire();
        }
        try {
            closeOwned();
        } finally {
            if (handOff) {
                release();
            }
        }
    }

    private void closeOwned() {
        if (!closed && !engine.isClosing()) {
            try {
                broadcast.emitWatermark(Long.MAX_VALUE);
                deliverAllPending();
            } catch (IllegalStateException engineClosedMeanwhile) {
                // the engine closed its inboxes first: it flushes on its own, nothing of ours is lost
            }
            if (shardsWithPendingControl > 0 && !engine.isClosing()) {
                throw new IllegalStateException("this producer's last watermark could not be enqueued: a shard's inbox"
                        + " is full (BackpressurePolicy.REJECT); call close() again");
            }
        }
        closed = true;
    }

    /** @return this source's latest send time, read by the shards */
    java.util.concurrent.atomic.AtomicLong lastActive() {
        return lastActive;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this producer is closed");
        }
    }

    private void toAllShards(java.util.function.IntFunction<ShardRecord> record) {
        // A record for every shard is all before a rule change on every shard or all after it: this producer says it
        // is broadcasting (a volatile write), then looks for a change being sent (a volatile read); a change being
        // sent waits for broadcasting producers after its own volatile write, so one of the two sees the other.
        while (true) {
            broadcasting = true;
            if ((engine.injection() & 1) == 0) {
                break;
            }
            broadcasting = false;
            engine.awaitInjection();
        }
        try {
            toAllShardsNow(record);
        } finally {
            broadcasting = false;
        }
    }

    /** @return whether this producer is putting a record into every inbox right now (read by a change being sent) */
    boolean isBroadcasting() {
        return broadcasting;
    }

    private void toAllShardsNow(java.util.function.IntFunction<ShardRecord> record) {
        if (engine.isDrivenByCaller()) {
            // all or nothing: the caller is the only thread, so the room checked here is still there below
            for (int s = 0; s < inboxes.length; s++) {
                if (inboxes[s].size() >= inboxes[s].capacity()) {
                    throw fullInboxOfCallerDrivenEngine(s, String.valueOf(record.apply(s)));
                }
            }
        }
        try {
            for (int s = 0; s < inboxes.length; s++) {
                if (block) {
                    inboxes[s].put(record.apply(s), backoff); // never rejected: they carry time forward
                } else {
                    offerInOrder(s, record.apply(s));
                }
            }
        } catch (IllegalStateException closed) {
            throw namingTheFailure(closed);
        }
    }

    /** Under REJECT: enqueues {@code control} for shard {@code s} now, or keeps it, in order, for a later call. */
    @SuppressWarnings("unchecked")
    private void offerInOrder(int s, ShardRecord control) {
        if ((pendingControl == null || pendingControl[s] == null || pendingControl[s].isEmpty())
                && inboxes[s].offer(control)) {
            return;
        }
        if (pendingControl == null) {
            pendingControl = new ArrayDeque[inboxes.length];
        }
        if (pendingControl[s] == null) {
            pendingControl[s] = new ArrayDeque<>();
        }
        ArrayDeque<ShardRecord> queue = pendingControl[s];
        if (queue.isEmpty()) {
            shardsWithPendingControl++;
        } else if (control instanceof ShardRecord.Watermark && queue.peekLast() instanceof ShardRecord.Watermark) {
            queue.pollLast(); // a newer watermark of the same source replaces one not yet sent
        }
        queue.addLast(control);
        deliverPending(s);
    }

    /** @return whether nothing of this producer waits for shard {@code s} any more */
    private boolean deliverPending(int s) {
        ArrayDeque<ShardRecord> queue = pendingControl == null ? null : pendingControl[s];
        if (queue == null || queue.isEmpty()) {
            return true;
        }
        while (!queue.isEmpty() && inboxes[s].offer(queue.peekFirst())) {
            queue.pollFirst();
        }
        if (queue.isEmpty()) {
            shardsWithPendingControl--;
            return true;
        }
        return false;
    }

    private void deliverAllPending() {
        if (shardsWithPendingControl > 0) {
            try {
                for (int s = 0; s < inboxes.length; s++) {
                    deliverPending(s);
                }
            } catch (IllegalStateException closed) {
                throw namingTheFailure(closed);
            }
        }
    }

    /**
     * @param closed what an inbox threw because it is closed
     * @return the same, or, when the engine closed its inboxes because a shard failed, an exception that says so
     *         with the failure as its cause (the caller otherwise sees only a closed inbox)
     */
    private IllegalStateException namingTheFailure(IllegalStateException closed) {
        java.util.Optional<Throwable> failure = engine.failure();
        if (failure.isEmpty()) {
            return closed;
        }
        IllegalStateException named = new IllegalStateException("the engine takes no more input (its inboxes are"
                + " closed): it stopped after a failure (" + failure.get().getMessage() + ")", failure.get());
        named.addSuppressed(closed);
        return named;
    }

    private IllegalStateException fullInboxOfCallerDrivenEngine(int shard, String what) {
        return new IllegalStateException("the inbox of shard " + shard + " is full (" + inboxes[shard].capacity()
                + " records) and a CepTestHarness drives the shards on this thread, so no one would make room for "
                + what + ": call runUntilIdle() more often, or build the engine with a larger inboxCapacity");
    }

    /** Forwards this source's watermark and idleness to every shard, in-band. */
    private final class Broadcast implements WatermarkOutput {
        @Override
        public void emitWatermark(long watermark) {
            if (watermark <= lastWatermark && !idle) {
                return;
            }
            long w = Math.max(lastWatermark, watermark);
            toAllShards(s -> new ShardRecord.Watermark(inputAtShard[s], w));
            idle = false; // only once sent: a send that failed (full inbox under a harness) may be repeated
            lastWatermark = w;
        }

        @Override
        public void markIdle() {
            if (!idle) {
                toAllShards(s -> new ShardRecord.Idleness(inputAtShard[s], true));
                idle = true;
            }
        }

        @Override
        public void markActive() {
            if (idle) {
                toAllShards(s -> new ShardRecord.Idleness(inputAtShard[s], false));
                idle = false;
            }
        }
    }
}

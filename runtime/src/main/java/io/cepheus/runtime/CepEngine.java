package io.cepheus.runtime;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.runtime.agent.ErrorAction;
import io.cepheus.runtime.agent.ErrorHandler;
import io.cepheus.runtime.agent.IdleStrategy;
import io.cepheus.runtime.internal.agent.AgentRunner;
import io.cepheus.runtime.internal.queue.ShardInbox;
import io.cepheus.runtime.internal.shard.CachedClock;
import io.cepheus.runtime.internal.shard.CepShard;
import io.cepheus.runtime.internal.shard.EngineControl;
import io.cepheus.runtime.internal.shard.OperatorFactory;
import io.cepheus.runtime.internal.shard.OperatorRegistry;
import io.cepheus.runtime.internal.shard.ShardRecord;
import io.cepheus.runtime.time.Clock;
import io.cepheus.runtime.time.WatermarkGenerator;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.WindowAssigner;
import io.cepheus.runtime.window.WindowedStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The embeddable CEP engine: events pushed by any number of {@link Producer}s are routed by key to a fixed set
 * of shards, each owned by one worker thread, buffered until the watermark passes them, matched by every
 * registered pattern, and handed to the pattern's handlers on that thread.
 *
 * <pre>{@code
 * CepEngine<Login> engine = CepEngine.<Login>builder()
 *         .watermarks(WatermarkStrategy.<Login>forBoundedOutOfOrderness(Duration.ofSeconds(5))
 *                 .withTimestampAssigner((login, ts) -> login.time()))
 *         .build();
 * engine.keyBy(Login::user).pattern(bruteForce).select((user, match, ts) -> alert(user, match));
 * Producer<Login> in = engine.newProducer();
 * engine.start();
 * logins.forEach(in::send);
 * engine.close();          // drains every shard; with flushOnClose (default) the end of input flushes all
 * }</pre>
 *
 * <p>Lifecycle: configure (key selector, patterns, handlers, producers), then {@link #start()} once, then
 * send, then {@link #close()}. For deterministic tests, {@link CepTestHarness} runs the same shards on the
 * caller's thread.
 *
 * @param <T> the event type
 */
public final class CepEngine<T> implements AutoCloseable {

    private final Builder<T> config;
    private final List<OperatorRegistration<T>> operators = new ArrayList<>();
    private final List<Producer<T>> producers = new ArrayList<>();
    /** The producers whose generators the engine's schedule calls ({@link PeriodicWatermarks}). */
    private final List<Producer<T>> scheduledProducers = new ArrayList<>();
    private final List<CepShard<T>> shards = new ArrayList<>();
    private final ShardInbox<ShardRecord>[] inboxes;
    private final CountDownLatch finished;
    private volatile boolean callerDriven;
    private final List<AgentRunner> runners = new ArrayList<>();
    private Function<? super T, ?> keySelector;
    /** The stream {@link #all()} made, if it did: the engine's key selector is then the one-partition one. */
    private KeyedStream<T> allStream;
    private java.util.function.Consumer<byte[]> snapshotHandler;
    private byte[] restoreFrom;
    private final java.util.Map<Long, byte[][]> snapshotParts = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<Long, java.util.concurrent.atomic.AtomicInteger> snapshotMissing =
            new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean started;
    /** Why {@link #start()} failed after it began building the shards; the engine is then unusable. */
    private volatile Throwable startFailure;
    private volatile boolean closing;
    /** The failure that stopped the engine, set before its inboxes close (the runners record theirs after). */
    private volatile Throwable stopFailure;
    /** The system clock as producers read it per send, refreshed by the shards; null under another clock. */
    private final CachedClock sendClock;
    /**
     * Odd while a control record (a rule set's change) is being put into the inboxes: a producer's send waits for
     * it to be even, so that each producer's input is cut at one point on every shard ({@link #control}).
     */
    private volatile long injection;
    /** Guards {@link #injecting} and {@link #checkpointsInFlight}: changes and snapshots never overlap. */
    private final Object controlLock = new Object();
    private boolean injecting;
    /** Snapshots some producer has marked and not every shard has written yet. */
    private final java.util.Set<Long> checkpointsInFlight = new java.util.HashSet<>();

    @SuppressWarnings("unchecked")
    private CepEngine(Builder<T> config) {
        this.config = config;
        this.sendClock = config.clock == Clock.system() || config.cacheSendClock ? new CachedClock(config.clock) : null;
        this.inboxes = new ShardInbox[config.shards];
        this.finished = new CountDownLatch(config.shards);
        for (int s = 0; s < config.shards; s++) {
            inboxes[s] = new ShardInbox<>(config.inboxCapacity);
            CepShard<T> shard = new CepShard<>(s, inboxes[s], config.batchSize,
                    config.flushOnClose ? Long.MAX_VALUE : Long.MIN_VALUE);
            shard.onFinished(finished::countDown);
            shards.add(shard);
        }
    }

    /**
     * @param <T> the event type
     * @return a builder with the defaults
     */
    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    /**
     * Partitions the events by key; call once. Every pattern registered on the result is matched per key, and
     * a key always goes to the same shard, chosen by its {@code hashCode}. With snapshots, that hash must be the
     * same in the JVM that restores as in the one that wrote (String, boxed primitives, records of those; not
     * enums or identity hashes): a restore refuses a key that would land on another shard.
     *
     * @param keySelector a pure function of the event (it runs on the producer's thread)
     * @return the keyed stream
     */
    public KeyedStream<T> keyBy(Function<? super T, ?> keySelector) {
        checkNotStarted("keyBy()");
        if (this.keySelector != null) {
            throw new IllegalStateException("keyBy() was already called: an engine has one key selector, shared"
                    + " by all its patterns");
        }
        this.keySelector = Objects.requireNonNull(keySelector, "keySelector");
        return new KeyedStream<>(registry, config.nfaOptions);
    }

    /**
     * @return a stream without key: every event in one partition, on one shard (Flink's non-keyed CEP and
     *         {@code windowAll}); the same stream on every call, so several patterns and windows can share it
     */
    public KeyedStream<T> all() {
        if (allStream == null) {
            allStream = keyBy(e -> Boolean.TRUE);
        }
        return allStream;
    }

    /**
     * Non-keyed windows, Flink's {@code stream.windowAll(assigner)}: every element in the same windows, on one key
     * (results report the key {@code true}) and so on one shard. Short for {@code all().window(assigner)}; like
     * Flink's, these windows do not spread over shards.
     *
     * @param assigner puts elements into windows
     * @return the windowed stream, to configure and finish with reduce, aggregate or process
     */
    public WindowedStream<T> windowAll(WindowAssigner<T> assigner) {
        return all().window(assigner);
    }

    /**
     * Creates a source of events, to be used by one thread. Before {@link #start()}: each shard's watermark
     * waits for all its sources.
     *
     * @return the producer
     */
    public Producer<T> newProducer() {
        checkNotStarted("newProducer()");
        if (keySelector == null) {
            throw new IllegalStateException("call keyBy() (or all()) before creating producers");
        }
        int[] inputs = new int[shards.size()];
        for (int s = 0; s < shards.size(); s++) {
            inputs[s] = shards.get(s).addProducer();
        }
        WatermarkStrategy<T> strategy = config.watermarks;
        WatermarkGenerator<T> generator = strategy.createGenerator(config.clock);
        // a generator that never emits needs no schedule, and its producer's calls no hand-over
        boolean scheduled = !config.periodicWatermarksOnSendOnly
                && generator != WatermarkStrategy.<T>noWatermarks().createGenerator(config.clock);
        Producer<T> producer = new Producer<>(this, inboxes, inputs, keySelector, strategy.timestampAssigner(),
                generator, config.clock, sendClock, strategy.autoWatermarkIntervalMillis(),
                config.backpressure == BackpressurePolicy.BLOCK, scheduled);
        if (scheduled) {
            scheduledProducers.add(producer);
        }
        producers.add(producer);
        return producer;
    }

    /**
     * Receives each completed live snapshot (see {@link Producer#checkpoint(long)}), on the thread of the
     * shard that finished it last. Needs {@link Builder#snapshots}. Before {@link #start()}.
     *
     * @param handler receives the whole snapshot, ready for {@link #restoreFrom(byte[])} on a fresh engine
     */
    public void onSnapshot(java.util.function.Consumer<byte[]> handler) {
        checkNotStarted("onSnapshot()");
        if (config.eventCodec == null) {
            throw new IllegalStateException("snapshots need codecs: Builder.snapshots(eventCodec, keyCodec)");
        }
        this.snapshotHandler = Objects.requireNonNull(handler, "handler");
    }

    /**
     * Starts this engine from a snapshot (taken live or by {@link CepTestHarness#snapshot}): it must be
     * configured as the snapshotted one (patterns, windows and joins in order, number of producers), with any number
     * of shards: restored into another number, each shard keeps the keys the engine routes to it (results of
     * different keys at one time may then come out in another order, and sliding windows combine their slices in
     * other groups: see the README's "Rescaling"). Before
     * {@link #start()}; the restore happens when it starts, which fails with an {@link IllegalStateException}
     * naming what is wrong: not a snapshot, another format version, truncated, corrupt (checksum mismatch),
     * another engine shape, a pattern of another structure (window, quantifiers, contiguity, skip strategy:
     * see {@link io.cepheus.nfa.CompiledPattern#structureFingerprint()}; conditions cannot be compared), or a
     * key whose {@code hashCode} now routes it to another shard than the one it was restored into.
     *
     * <p>A failed restore fails the engine for good, as described at {@link #start()}: to try again (another
     * snapshot, or the same one with the configuration fixed), build a new engine.
     *
     * @param snapshot the snapshot bytes
     */
    public void restoreFrom(byte[] snapshot) {
        checkNotStarted("restoreFrom()");
        if (config.eventCodec == null) {
            throw new IllegalStateException("restoring needs codecs: Builder.snapshots(eventCodec, keyCodec)");
        }
        this.restoreFrom = snapshot.clone();
    }

    /**
     * Starts one worker thread per shard, after restoring the snapshot given to {@link #restoreFrom}, if any, and
     * one that runs the producers' periodic watermarks on the engine's clock when their generators can emit.
     *
     * <p>If the restore fails, the engine is failed for good: it is not started and has started no thread; its
     * producers' sends throw an {@link IllegalStateException} (as before a start, with the failure as cause) and
     * it takes no watermarks or checkpoints either; {@link #close()} returns at once. It cannot be started (nor
     * configured) again, since some of its shards may already hold restored state: build a new engine to try
     * again. A start refused because nothing is registered or there is no producer changes nothing, so it may be
     * repeated once that is fixed.
     *
     * @throws IllegalStateException if the snapshot cannot be restored (the message says why), or the engine was
     *                               started before, or its start failed before
     */
    public void start() {
        prepare();
        for (CepShard<T> shard : shards) {
            ErrorHandler stopEngineOnStop = shardErrorHandler();
            runners.add(new AgentRunner(shard, config.idleStrategy.get(), (role, error) -> {
                ErrorAction action = stopEngineOnStop.onError(role, error);
                if (action != ErrorAction.CONTINUE) {
                    finished.countDown(); // close() does not wait for a stopped shard
                }
                return action;
            }).start());
        }
        PeriodicWatermarks<T> periodic = periodicWatermarks();
        if (periodic != null) {
            // wakes at least every millisecond: the interval is whole milliseconds
            runners.add(new AgentRunner(periodic, IdleStrategy.backoff(0, 0, 50_000, 1_000_000),
                    shardErrorHandler()).start());
        }
    }

    /** @return the agent that runs the producers' periodic emits on the engine's clock; null if none can emit */
    PeriodicWatermarks<T> periodicWatermarks() {
        return scheduledProducers.isEmpty() ? null
                : new PeriodicWatermarks<>(scheduledProducers, config.clock, inboxes);
    }

    /** @return the configured error handler, which stops the whole engine when it stops a shard */
    ErrorHandler shardErrorHandler() {
        ErrorHandler user = config.errorHandler;
        return (role, error) -> {
            ErrorAction action;
            try {
                action = user.onError(role, error);
            } catch (RuntimeException | Error handlerFailure) {
                error.addSuppressed(handlerFailure);
                action = ErrorAction.STOP;
            }
            if (action != ErrorAction.CONTINUE) {
                stopAfterFailure(error);
            }
            return action;
        };
    }

    /** @return whether {@link Builder#errorHandler} was set (a test harness otherwise throws to its caller) */
    boolean hasErrorHandler() {
        return config.errorHandlerSet;
    }

    /**
     * A shard stopped on an error: the whole engine stops taking input (producers' sends fail instead of hanging
     * or feeding a half-dead engine), and the other shards finish what is queued without a final watermark, so
     * nothing is flushed as if the input had ended; {@link #close()} reports the failure.
     */
    private void stopAfterFailure(Throwable error) {
        if (stopFailure == null) {
            stopFailure = error; // before the inboxes close: a producer that finds them closed can name it
        }
        for (CepShard<T> s : shards) {
            s.abandon();
        }
        for (ShardInbox<ShardRecord> inbox : inboxes) {
            inbox.close();
        }
    }

    /** Restores a snapshot into the shards, once their operators are built. */
    @FunctionalInterface
    interface SnapshotReader<X extends Exception> {
        void restore() throws X;
    }

    /**
     * Builds every shard's operators and restores the snapshot given to {@link #restoreFrom}, if any; the engine
     * runs from here on (threads or a test harness).
     *
     * @throws IllegalStateException as {@link #start()}
     */
    void prepare() {
        byte[] snapshot = restoreFrom;
        build(snapshot == null ? null : () -> restoreOrRefuse(snapshot));
    }

    /**
     * As {@link #prepare()}, restoring what {@code reader} reads (a {@link CepTestHarness} restore); refused if
     * {@link #restoreFrom} gave the engine a snapshot already, since only one can be its state.
     */
    <X extends Exception> void prepare(SnapshotReader<X> reader) throws X {
        checkNotStarted("start()");
        if (restoreFrom != null) {
            throw new IllegalStateException("restoreFrom() already gave this engine a snapshot: start it with"
                    + " CepTestHarness.start(engine), or restore on an engine without restoreFrom()");
        }
        build(Objects.requireNonNull(reader, "reader"));
    }

    /** Restores snapshot bytes, refusing them with an {@link IllegalStateException} that says why. */
    void restoreOrRefuse(byte[] snapshot) {
        try {
            SnapshotFormat.restore(this, snapshot, eventCodec(), keyCodec());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot restore the snapshot: " + e.getMessage(), e);
        }
    }

    private <X extends Exception> void build(SnapshotReader<X> reader) throws X {
        checkNotStarted("start()");
        if (operators.isEmpty()) {
            throw new IllegalStateException("nothing registered: call keyBy(...).pattern(...) (or window(...),"
                    + " a join) before start()");
        }
        if (producers.isEmpty()) {
            throw new IllegalStateException("no producer: call newProducer() before start()");
        }
        // From here on the shards change: a failure leaves them half built or half restored, so it is final.
        try {
            buildShards();
            if (reader != null) {
                reader.restore();
            }
        } catch (Exception | Error e) {
            startFailure = e;
            for (ShardInbox<ShardRecord> inbox : inboxes) {
                inbox.close(); // no worker will ever drain them: watermarks and checkpoints fail instead of piling up
            }
            throw e;
        }
        started = true;
    }

    private void buildShards() {
        long now = config.clock.millis();
        java.util.concurrent.atomic.AtomicLong[] producerActivity = new java.util.concurrent.atomic.AtomicLong[producers.size()];
        for (int p = 0; p < producers.size(); p++) {
            producerActivity[p] = producers.get(p).lastActive();
            producerActivity[p].set(now); // silence is measured from the start
        }
        for (CepShard<T> shard : shards) {
            shard.processingTimeClock(config.clock);
            if (config.endOfBatch != null) {
                shard.endOfBatchListener(config.endOfBatch);
            }
            if (sendClock != null) {
                shard.refreshes(sendClock);
            }
            config.watermarks.idleTimeout().ifPresent(
                    timeout -> shard.silentProducerTimeout(producerActivity, Math.max(1, saturatedMillis(timeout))));
            if (config.eventCodec != null) {
                shard.snapshots(this::snapshotPart, config.eventCodec, config.keyCodec);
            }
            for (int id = 0; id < operators.size(); id++) {
                shard.add(operators.get(id).factory().create(id, shard));
            }
        }
    }

    /**
     * Stops accepting input, lets every shard drain its inbox (and flush with a final watermark if
     * {@link Builder#flushOnClose(boolean)}), then stops the threads. Waits at most 30 s per step.
     *
     * @throws IllegalStateException if a shard failed or did not finish in time
     */
    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    /**
     * As {@link #close()}, with a bound on each wait.
     *
     * @param timeout how long to wait for the shards to drain, and then for the threads to stop
     */
    public void close(Duration timeout) {
        if (closing) {
            return;
        }
        closing = true;
        try {
            closeShards(timeout);
        } finally {
            stopped();
        }
    }

    private void closeShards(Duration timeout) {
        for (ShardInbox<ShardRecord> inbox : inboxes) {
            inbox.close();
        }
        if (runners.isEmpty()) {
            return; // never started (or driven by a CepTestHarness, which drains on its own close)
        }
        boolean drained;
        try {
            drained = finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
        }
        // every runner is asked to stop, even after one that did not: a stuck shard must not leave the others running
        IllegalStateException notStopped = null;
        for (AgentRunner runner : runners) {
            try {
                runner.close(timeout);
            } catch (IllegalStateException stuck) {
                if (notStopped == null) {
                    notStopped = stuck;
                } else {
                    notStopped.addSuppressed(stuck);
                }
            }
        }
        if (notStopped != null) {
            throw notStopped;
        }
        Optional<Throwable> failure = failure();
        if (failure.isPresent()) {
            throw new IllegalStateException("a shard failed", failure.get());
        }
        if (!drained && !runners.isEmpty()) {
            throw new IllegalStateException("the shards did not drain within " + timeout);
        }
    }

    /** A shard finished its part of snapshot {@code id}; the last one assembles and hands it over. */
    private void snapshotPart(int shard, long id, byte[] part) {
        byte[][] parts = snapshotParts.computeIfAbsent(id, k -> new byte[shards.size()][]);
        java.util.concurrent.atomic.AtomicInteger missing =
                snapshotMissing.computeIfAbsent(id, k -> new java.util.concurrent.atomic.AtomicInteger(shards.size()));
        parts[shard] = part;
        if (missing.decrementAndGet() == 0) { // the decrement publishes every part written before it
            snapshotParts.remove(id);
            snapshotMissing.remove(id);
            try {
                if (snapshotHandler != null) {
                    snapshotHandler.accept(SnapshotFormat.assemble(this, parts));
                }
            } finally {
                checkpointDone(id);
            }
        }
    }

    /** @return the first failure of a shard's worker, if any */
    public Optional<Throwable> failure() {
        for (AgentRunner runner : runners) {
            if (runner.failure().isPresent()) {
                return runner.failure();
            }
        }
        return Optional.ofNullable(stopFailure);
    }

    /** @return every shard's counters as of its latest batch; any thread, any time */
    public EngineMetrics metrics() {
        List<ShardMetrics> out = new ArrayList<>(shards.size());
        for (CepShard<T> shard : shards) {
            out.add(shard.metrics());
        }
        return new EngineMetrics(out);
    }

    /** @return the number of shards */
    public int shardCount() {
        return shards.size();
    }

    // ------------------------------------------------------------------ package-private plumbing

    /** How the streams of this engine register their operators (see {@link OperatorRegistry}). */
    private final OperatorRegistry<T> registry = new OperatorRegistry<>() {
        @Override
        public void checkNotStarted(String call) {
            CepEngine.this.checkNotStarted(call);
        }

        @Override
        public int register(String description, OperatorFactory<T> factory) {
            CepEngine.this.checkNotStarted("registering an operator");
            operators.add(new OperatorRegistration<>(description, factory));
            return operators.size() - 1;
        }

        @Override
        public boolean snapshotsEnabled() {
            return CepEngine.this.snapshotsEnabled();
        }

        @Override
        public EventCodec<T> eventCodec() {
            return CepEngine.this.eventCodec();
        }

        @Override
        public EngineControl control() {
            return control;
        }
    };

    /**
     * How rule sets change the running engine. A change is put into every inbox while producers' sends wait (they
     * spin for the microseconds it takes, reading one volatile field per send otherwise), so each producer's events
     * are all before it or all after it on every shard: Chandy and Lamport's consistent cut, with the engine as one
     * more sender. It also waits for any snapshot in flight, and a snapshot waits for it: a change falling between
     * a snapshot's barriers would be after the cut for one producer and before it for another.
     */
    private final EngineControl control = new EngineControl() {
        @Override
        public boolean isRunning() {
            return started;
        }

        @Override
        public boolean isDrivenByCaller() {
            return callerDriven;
        }

        @Override
        public int shards() {
            return shards.size();
        }

        @Override
        public void onStopped(Runnable listener) {
            stoppedListeners.add(listener);
        }

        @Override
        public void ask(Object key, ShardRecord record) {
            if (!started) {
                throw new IllegalStateException("the engine is not running: start it (or CepTestHarness.start) first");
            }
            refuseControlIfStopped();
            ShardInbox<ShardRecord> inbox = inboxes[shardOf(key, inboxes.length)];
            if (callerDriven) {
                if (!inbox.offer(record)) {
                    throw new IllegalStateException("the inbox of the key's shard is full and a CepTestHarness drives"
                            + " the shards on this thread: call runUntilIdle() first");
                }
                return;
            }
            inbox.put(record, io.cepheus.runtime.agent.IdleStrategy.backoff(ShardInbox.PUT_MAX_SPINS,
                    ShardInbox.PUT_MAX_YIELDS, ShardInbox.PUT_MIN_PARK_NANOS, ShardInbox.PUT_MAX_PARK_NANOS));
        }

        @Override
        public void broadcast(ShardRecord record) {
            synchronized (controlLock) {
                while (!checkpointsInFlight.isEmpty() || injecting) {
                    refuseControlIfStopped();
                    if (callerDriven) {
                        throw new IllegalStateException("snapshot " + checkpointsInFlight + " is being taken: run the"
                                + " harness until every shard wrote its part (runUntilIdle) before changing rules");
                    }
                    try {
                        controlLock.wait(10);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while waiting for a snapshot to complete", e);
                    }
                }
                refuseControlIfStopped();
                if (callerDriven) {
                    // all or nothing: the caller is the only thread, so the room checked here is still there below
                    for (int s = 0; s < inboxes.length; s++) {
                        if (inboxes[s].size() >= inboxes[s].capacity()) {
                            throw new IllegalStateException("the inbox of shard " + s + " is full and a CepTestHarness"
                                    + " drives the shards on this thread: call runUntilIdle() first");
                        }
                    }
                }
                injecting = true;
                injection++;
            }
            try {
                for (Producer<T> p : producers) {
                    while (p.isBroadcasting()) { // a watermark or barrier half way through the inboxes: let it finish
                        Thread.onSpinWait();
                    }
                }
                io.cepheus.runtime.agent.IdleStrategy backoff = io.cepheus.runtime.agent.IdleStrategy.backoff(
                        ShardInbox.PUT_MAX_SPINS, ShardInbox.PUT_MAX_YIELDS, ShardInbox.PUT_MIN_PARK_NANOS,
                        ShardInbox.PUT_MAX_PARK_NANOS);
                for (ShardInbox<ShardRecord> inbox : inboxes) {
                    if (callerDriven) {
                        inbox.offer(record);
                    } else {
                        inbox.put(record, backoff);
                    }
                }
            } finally {
                synchronized (controlLock) {
                    injection++;
                    injecting = false;
                    controlLock.notifyAll();
                }
            }
        }
    };

    private final List<Runnable> stoppedListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Tells the listeners the engine stopped (every shard finished, or will never run again). */
    void stopped() {
        for (Runnable r : stoppedListeners) {
            r.run();
        }
    }

    private void refuseControlIfStopped() {
        if (closing || stopFailure != null || startFailure != null) {
            throw new IllegalStateException("the engine takes no more changes: it is "
                    + (closing ? "closing" : "stopped after a failure"), stopFailure != null ? stopFailure : startFailure);
        }
    }

    /** @return odd while a control record is being put into the inboxes (a send waits then) */
    long injection() {
        return injection;
    }

    /** A send waits for a control record to be in every inbox, so that it is all before or all after it. */
    void awaitInjection() {
        int spins = 0;
        while ((injection & 1) != 0) {
            if (++spins < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** A producer marks snapshot {@code id}: no control record may be sent until every shard wrote its part. */
    void checkpointStarting(long id) {
        synchronized (controlLock) {
            while (injecting) {
                try {
                    controlLock.wait(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while a rule change was being sent", e);
                }
            }
            checkpointsInFlight.add(id);
        }
    }

    private void checkpointDone(long id) {
        synchronized (controlLock) {
            checkpointsInFlight.remove(id);
            controlLock.notifyAll();
        }
    }

    /** A registered operator: what a snapshot calls it, and how each shard makes its instance. */
    record OperatorRegistration<T>(String description, OperatorFactory<T> factory) {
    }

    /** @return the operators registered so far, in id order */
    List<OperatorRegistration<T>> operatorList() {
        return operators;
    }

    /** @return the engine's processing-time clock */
    Clock clock() {
        return config.clock;
    }

    /** @return whether the engine was built with snapshot codecs */
    boolean snapshotsEnabled() {
        return config.eventCodec != null;
    }

    void checkNotStarted(String call) {
        Throwable failure = startFailure;
        if (failure != null) {
            throw new IllegalStateException(call + " is refused: this engine's start() failed (" + failure.getMessage()
                    + ") and its shards may hold part of the state it was restoring: build a new engine", failure);
        }
        if (started) {
            throw new IllegalStateException(call + " must be called before the engine starts");
        }
    }

    /**
     * A {@link CepTestHarness} drives the shards on the caller's thread (setup): a producer that would wait for room
     * in a full inbox would then wait forever, so it fails instead.
     */
    void drivenByCaller() {
        this.callerDriven = true;
    }

    /** @return whether the shards run only when the caller runs them (a {@link CepTestHarness}) */
    boolean isDrivenByCaller() {
        return callerDriven;
    }

    boolean isClosing() {
        return closing;
    }

    boolean isStarted() {
        return started;
    }

    /** @return why {@link #start()} (or a harness start) failed, if it did; null otherwise */
    Throwable startFailure() {
        return startFailure;
    }

    /** @return the shards, in index order */
    List<CepShard<T>> shards() {
        return shards;
    }

    EventCodec<T> eventCodec() {
        if (config.eventCodec == null) {
            throw new IllegalStateException("snapshots need codecs: Builder.snapshots(eventCodec, keyCodec)");
        }
        return config.eventCodec;
    }

    EventCodec<Object> keyCodec() {
        eventCodec();
        return config.keyCodec;
    }


    ShardInbox<ShardRecord>[] inboxes() {
        return inboxes;
    }

    private static long saturatedMillis(Duration d) {
        try {
            return d.toMillis();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** A key's shard: a stable spread of its hash code, so per-key order holds across runs. */
    static int shardOf(Object key, int shards) {
        int h = key.hashCode();
        h ^= h >>> 16;
        h *= 0x45d9f3b;
        h ^= h >>> 16;
        return Math.floorMod(h, shards);
    }

    /**
     * Settings of an engine. Defaults: one shard per available processor, no watermarks (send them
     * explicitly), the system clock, inboxes of 65,536 records, batches of 256, blocking backpressure, a
     * spin-yield-park idle strategy, flush on close, stop a shard on an error (reported by {@code close()}).
     *
     * @param <T> the event type
     */
    public static final class Builder<T> {
        private int shards = Runtime.getRuntime().availableProcessors();
        private WatermarkStrategy<T> watermarks = WatermarkStrategy.noWatermarks();
        private Clock clock = Clock.system();
        private boolean cacheSendClock;
        /** Periodic watermarks only from sends and ticks, not on the engine's schedule (tests of the send path). */
        private boolean periodicWatermarksOnSendOnly;
        private int inboxCapacity = 65_536;
        private int batchSize = 256;
        private BackpressurePolicy backpressure = BackpressurePolicy.BLOCK;
        private Supplier<IdleStrategy> idleStrategy = () -> IdleStrategy.backoff(100, 10, 1_000, 1_000_000);
        private NfaOptions nfaOptions = NfaOptions.defaults();
        private ErrorHandler errorHandler = ErrorHandler.alwaysStop();
        private boolean errorHandlerSet;
        private EndOfBatchListener endOfBatch;
        private boolean flushOnClose = true;
        private EventCodec<T> eventCodec;
        private EventCodec<Object> keyCodec;

        private Builder() {
        }

        /**
         * Enables snapshots: how events and keys are written ({@link io.cepheus.nfa.RecordCodec} builds codecs for
         * records of primitives and strings).
         *
         * @param events the event codec
         * @param keys   the key codec
         * @return this builder
         */
        public Builder<T> snapshots(EventCodec<T> events, EventCodec<Object> keys) {
            this.eventCodec = Objects.requireNonNull(events, "events");
            this.keyCodec = Objects.requireNonNull(keys, "keys");
            return this;
        }

        /**
         * @param n at least 1
         * @return this builder
         */
        public Builder<T> shards(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("shards must be at least 1, was " + n);
            }
            this.shards = n;
            return this;
        }

        /**
         * @param strategy timestamps and watermarks of every producer
         * @return this builder
         */
        public Builder<T> watermarks(WatermarkStrategy<T> strategy) {
            this.watermarks = Objects.requireNonNull(strategy, "strategy");
            return this;
        }

        /**
         * @param clock processing time (periodic watermarks, idleness, conditions)
         * @return this builder
         */
        public Builder<T> clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Makes producers read the clock through a {@link CachedClock} even when it is not the system clock
         * (the system clock always is): lets a test on a manual clock see when sends read the time.
         *
         * @return this builder
         */
        Builder<T> periodicWatermarksOnSendOnly() {
            this.periodicWatermarksOnSendOnly = true;
            return this;
        }

        Builder<T> cacheSendClock() {
            this.cacheSendClock = true;
            return this;
        }

        /**
         * @param capacity records per shard inbox, at least 2 (rounded to a power of two)
         * @return this builder
         */
        public Builder<T> inboxCapacity(int capacity) {
            if (capacity < 2) {
                throw new IllegalArgumentException("inboxCapacity must be at least 2, was " + capacity);
            }
            this.inboxCapacity = capacity;
            return this;
        }

        /**
         * @param size records a shard drains per duty cycle, at least 1
         * @return this builder
         */
        public Builder<T> batchSize(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, was " + size);
            }
            this.batchSize = size;
            return this;
        }

        /**
         * @param policy what {@link Producer#send} does when a shard's inbox is full
         * @return this builder
         */
        public Builder<T> backpressure(BackpressurePolicy policy) {
            this.backpressure = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * @param strategies a new idle strategy per shard worker
         * @return this builder
         */
        public Builder<T> idleStrategy(Supplier<IdleStrategy> strategies) {
            this.idleStrategy = Objects.requireNonNull(strategies, "strategies");
            return this;
        }

        /**
         * @param options bound on partial matches per key, overflow policy
         * @return this builder
         */
        public Builder<T> nfaOptions(NfaOptions options) {
            this.nfaOptions = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * @param listener told on each shard's thread when a batch is complete, so that handlers that buffer
         *                 their output can flush once per batch ({@link EndOfBatchListener})
         * @return this builder
         */
        public Builder<T> onEndOfBatch(EndOfBatchListener listener) {
            this.endOfBatch = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Decides what happens when user code throws and the stream has no dead-letter handler (see
         * {@link UserCodeException}): {@link ErrorHandler#alwaysStop()} (the default) stops the engine, which then
         * takes no more input and reports the failure from {@link #close()};
         * {@link ErrorHandler#logAndContinue} logs it and goes on. Either way the shard first finishes the batch in
         * which the failure happened, so every key's state stays consistent.
         *
         * @param handler called on the failing shard's thread, at the end of the batch
         * @return this builder
         */
        public Builder<T> errorHandler(ErrorHandler handler) {
            this.errorHandler = Objects.requireNonNull(handler, "handler");
            this.errorHandlerSet = true;
            return this;
        }

        /**
         * @param flush whether closing applies a final {@code Long.MAX_VALUE} watermark (end of bounded input:
         *              everything buffered is matched, every open window times out)
         * @return this builder
         */
        public Builder<T> flushOnClose(boolean flush) {
            this.flushOnClose = flush;
            return this;
        }

        /** @return the engine, not started */
        public CepEngine<T> build() {
            return new CepEngine<>(this);
        }
    }
}

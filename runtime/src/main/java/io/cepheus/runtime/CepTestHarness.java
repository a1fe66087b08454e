package io.cepheus.runtime;

import io.cepheus.runtime.internal.agent.Agent;
import io.cepheus.runtime.internal.agent.AgentInvoker;
import io.cepheus.runtime.internal.queue.ShardInbox;
import io.cepheus.runtime.internal.shard.ShardRecord;
import io.cepheus.runtime.time.ManualClock;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs an engine deterministically on the caller's thread: the same shards and operators as
 * {@link CepEngine#start()}, but each duty cycle runs when the test says so. Push events and watermarks
 * through the engine's producers, then {@link #runUntilIdle()}; {@link #close()} drains and flushes as the
 * engine's close does. Use a {@link io.cepheus.runtime.time.ManualClock} for processing time.
 *
 * <pre>{@code
 * CollectingSink<Match<Login>> matches = new CollectingSink<>();
 * engine.keyBy(Login::user).pattern(p).select(matches::add);
 * CepTestHarness<Login> h = CepTestHarness.start(engine);
 * in.send(login); in.watermark(100);
 * h.runUntilIdle();                                // matches and timeouts have reached the handlers
 * h.advanceProcessingTime(Duration.ofMinutes(1));  // processing-time timers fire (needs a ManualClock)
 * h.close();
 * }</pre>
 *
 * <p>Failures of user code ({@link UserCodeException}) go where the engine would send them: to the stream's
 * dead-letter handler, or else to the engine's {@link CepEngine.Builder#errorHandler} if one was set: if it goes
 * on, so does the harness; if it stops, the engine stops as a started one would (no more input, no final flush)
 * and {@link #runUntilIdle()} throws an {@link IllegalStateException} whose cause is the failure. Without an error
 * handler, the exception itself is thrown to the caller of {@link #runUntilIdle()}, at the end of the batch in
 * which it happened, so a test sees it at once.
 *
 * <p>Single-threaded: everything runs on the thread that calls it. Inboxes must be large enough for what is
 * pushed between two {@link #runUntilIdle()} calls: a send, watermark or checkpoint that finds an inbox full
 * throws an {@link IllegalStateException} saying so (nothing is sent), since no worker would ever make room;
 * under {@link BackpressurePolicy#REJECT} a full inbox makes {@code send} return false instead, as in an engine.
 *
 * @param <T> the event type
 */
public final class CepTestHarness<T> implements AutoCloseable {

    private final CepEngine<T> engine;
    private final List<AgentInvoker> invokers = new ArrayList<>();

    private CepTestHarness(CepEngine<T> engine) {
        this.engine = engine;
    }

    /**
     * Prepares the engine's shards to run on the caller's thread (instead of {@link CepEngine#start()}), after
     * restoring the snapshot given to {@link CepEngine#restoreFrom}, if any. A failed restore fails the engine
     * for good, exactly as {@link CepEngine#start()} describes.
     *
     * @param engine a configured engine that was not started
     * @param <T>    the event type
     * @return the harness
     * @throws IllegalStateException if the snapshot cannot be restored (the message says why), or the engine was
     *                               started before, or its start failed before
     */
    public static <T> CepTestHarness<T> start(CepEngine<T> engine) {
        engine.prepare();
        return running(engine);
    }

    /** Drives the shards of a prepared engine from the caller's thread. */
    private static <T> CepTestHarness<T> running(CepEngine<T> engine) {
        engine.drivenByCaller();
        CepTestHarness<T> harness = new CepTestHarness<>(engine);
        List<Agent> agents = new ArrayList<>();
        Agent periodic = engine.periodicWatermarks();
        if (periodic != null) {
            agents.add(periodic); // first: what it emits reaches the shards in the same pass
        }
        agents.addAll(engine.shards());
        for (Agent agent : agents) {
            AgentInvoker invoker = engine.hasErrorHandler() ? new AgentInvoker(agent, engine.shardErrorHandler())
                    : new AgentInvoker(agent);
            invoker.start();
            harness.invokers.add(invoker);
        }
        return harness;
    }

    /**
     * Runs every shard's duty cycle, and the producers' periodic watermarks that are due on the engine's clock,
     * until none has work left.
     *
     * @return the number of records and steps processed
     */
    public int runUntilIdle() {
        int total = 0;
        boolean busy = true;
        while (busy) {
            busy = false;
            for (AgentInvoker invoker : invokers) {
                if (invoker.isClosed()) {
                    continue; // stopped by the error handler: the engine takes no more input
                }
                int work = invoker.invoke();
                total += work;
                busy |= work > 0;
            }
        }
        for (AgentInvoker invoker : invokers) {
            if (invoker.failure().isPresent()) {
                throw new IllegalStateException("the engine stopped after a failure", invoker.failure().get());
            }
        }
        return total;
    }

    /**
     * Moves the engine's {@link ManualClock} forward, then runs the shards until idle: processing-time timers
     * that came due fire (processing-time patterns' timeouts, processing-time windows), and producers' periodic
     * watermarks whose interval passed are emitted, as the engine's schedule does.
     *
     * @param duration how far to move the clock; not negative
     * @return the number of records and steps processed
     * @throws IllegalStateException if the engine was not built with a {@link ManualClock}
     */
    public int advanceProcessingTime(java.time.Duration duration) {
        if (!(engine.clock() instanceof ManualClock manual)) {
            throw new IllegalStateException("the engine's clock is " + engine.clock() + ", not a ManualClock: build"
                    + " the engine with .clock(new ManualClock(...)) to drive processing time from a test");
        }
        manual.advance(duration.toMillis());
        return runUntilIdle();
    }

    /**
     * Runs the shards until idle, then writes a snapshot of the whole engine: every shard's key states, buffered
     * events, watermarks and counters. The producers' own watermark generators are not part of it: after a
     * restore they start over, and their watermarks count once they pass the restored ones.
     *
     * @param out      where to write
     * @param events   writes events
     * @param keyCodec writes keys
     * @throws java.io.IOException if writing fails
     */
    public void snapshot(java.io.DataOutput out, io.cepheus.nfa.EventCodec<T> events,
            io.cepheus.nfa.EventCodec<Object> keyCodec) throws java.io.IOException {
        runUntilIdle();
        List<io.cepheus.runtime.internal.shard.CepShard<T>> shards = engine.shards();
        byte[][] parts = new byte[shards.size()][];
        for (int s = 0; s < parts.length; s++) {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            try (java.io.DataOutputStream part = new java.io.DataOutputStream(bytes)) {
                shards.get(s).writeState(part, events, keyCodec);
            }
            parts[s] = bytes.toByteArray();
        }
        out.write(SnapshotFormat.assemble(engine, parts));
    }

    /**
     * Builds a harness from a snapshot (of this harness or of a running engine): {@code engine} must be
     * configured as the snapshotted one (the same patterns in the same order, the same number of producers; any
     * number of shards, as {@link CepEngine#restoreFrom} describes) and not started. Reads exactly one snapshot from {@code in}, whatever follows it.
     *
     * @param engine   the fresh engine, not given a snapshot by {@link CepEngine#restoreFrom}; a failed restore
     *                 fails it for good, as {@link CepEngine#start()} describes
     * @param in       the snapshot
     * @param events   reads events
     * @param keyCodec reads keys
     * @param <T>      the event type
     * @return the harness, ready to continue where the snapshot was taken
     * @throws java.io.IOException naming what is wrong: the input is not a snapshot, is of another format
     *                             version, is truncated or corrupt (its checksum does not match), or was taken
     *                             of an engine of another shape (shards, operators, pattern structure), or a
     *                             restored key's {@code hashCode} routes it to another shard (see
     *                             {@link CepEngine#keyBy})
     */
    public static <T> CepTestHarness<T> restore(CepEngine<T> engine, java.io.DataInput in,
            io.cepheus.nfa.EventCodec<T> events, io.cepheus.nfa.EventCodec<Object> keyCodec)
            throws java.io.IOException {
        engine.prepare(() -> SnapshotFormat.restore(engine, in, events, keyCodec));
        return running(engine);
    }

    /**
     * Builds a harness from live snapshot bytes ({@link CepEngine#onSnapshot}); see
     * {@link #restore(CepEngine, java.io.DataInput, io.cepheus.nfa.EventCodec, io.cepheus.nfa.EventCodec)}.
     * The engine needs {@link CepEngine.Builder#snapshots} codecs.
     *
     * @param engine   the fresh engine, not given a snapshot by {@link CepEngine#restoreFrom} (this replaces it); a
     *                 failed restore fails it for good, as {@link CepEngine#start()} describes
     * @param snapshot the snapshot bytes, exactly: bytes after the snapshot are an error too
     * @param <T>      the event type
     * @return the harness
     * @throws IllegalStateException if the snapshot cannot be restored; its message says why
     */
    public static <T> CepTestHarness<T> restore(CepEngine<T> engine, byte[] snapshot) {
        engine.eventCodec(); // no codecs: refused before anything is built
        engine.prepare(() -> engine.restoreOrRefuse(snapshot));
        return running(engine);
    }

    /**
     * The trace of a key for a pattern, as a readable report
     * ({@link io.cepheus.runtime.explain.Explanation#toString()}): runs the shards until idle, then asks. Start the trace with {@link PatternStream#startTrace} before sending the
     * key's events; it then covers every one of them.
     *
     * <pre>{@code
     * logins.startTrace("alice");
     * in.send(...); in.watermark(...);
     * Explanation why = harness.explain(logins, "alice");
     * assertEquals(1, why.completed().size(), why.toString());
     * }</pre>
     *
     * @param pattern the pattern's stream
     * @param key     the key
     * @return its trace so far (tracing goes on)
     * @throws IllegalStateException if the key is not traced for the pattern
     */
    public io.cepheus.runtime.explain.Explanation explain(PatternStream<T> pattern, Object key) {
        return answered(pattern.explain(key), "the key " + key + " is not traced for pattern " + pattern.id()
                + ": call startTrace(key) before sending its events");
    }

    /**
     * The traces of a key for one rule, by version: as {@link #explain(PatternStream, Object)}, for a rule started
     * with {@link io.cepheus.runtime.rules.RuleStream#startTrace}.
     *
     * @param rules  the rule set
     * @param ruleId the rule
     * @param key    the key
     * @return its traces by version (tracing goes on)
     * @throws IllegalStateException if the key is not traced for the rule
     */
    public java.util.Map<io.cepheus.runtime.rules.RuleVersion, io.cepheus.runtime.explain.Explanation> explain(
            io.cepheus.runtime.rules.RuleStream<T> rules, String ruleId, Object key) {
        java.util.Map<io.cepheus.runtime.rules.RuleVersion, io.cepheus.runtime.explain.Explanation> traces =
                answered(rules.explain(ruleId, key), null);
        if (traces.isEmpty()) {
            throw new IllegalStateException("the key " + key + " is not traced for rule " + ruleId
                    + ": call startTrace(ruleId, key) before sending its events");
        }
        return traces;
    }

    private <A> A answered(java.util.concurrent.CompletableFuture<A> question, String whenNull) {
        runUntilIdle();
        if (!question.isDone()) {
            runUntilIdle(); // asked while idle: the shard answers on its next cycle
        }
        A answer = question.getNow(null);
        if (!question.isDone() || (answer == null && whenNull != null)) {
            throw new IllegalStateException(question.isDone() ? whenNull : "the shard did not answer");
        }
        return answer;
    }

    /** Closes the inboxes, drains and flushes every shard (as the engine's close does), then stops them. */
    @Override
    public void close() {
        for (ShardInbox<ShardRecord> inbox : engine.inboxes()) {
            inbox.close();
        }
        try {
            runUntilIdle();
        } finally {
            for (AgentInvoker invoker : invokers) {
                invoker.close();
            }
            engine.stopped();
        }
    }
}

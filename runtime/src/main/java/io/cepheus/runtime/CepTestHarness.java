package io.cepheus.runtime;

import io.cepheus.runtime.agent.Agent;
import io.cepheus.runtime.agent.AgentInvoker;
import io.cepheus.runtime.internal.queue.ShardInbox;
import io.cepheus.runtime.internal.shard.ShardRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs an engine deterministically on the caller's thread: the same shards and operators as
 * {@link CepEngine#start()}, but each duty cycle runs when the test says so. Push events and watermarks
 * through the engine's producers, then {@link #runUntilIdle()}; {@link #close()} drains and flushes as the
 * engine's close does. Use a {@link io.cepheus.runtime.time.ManualClock} for processing time.
 *
 * <pre>{@code
 * CepTestHarness<Login> h = CepTestHarness.start(engine);
 * in.send(login); in.watermark(100);
 * h.runUntilIdle();   // matches and timeouts have reached the handlers
 * h.close();
 * }</pre>
 *
 * <p>Single-threaded: everything runs on the thread that calls it. Inboxes must be large enough for what is
 * pushed between two {@link #runUntilIdle()} calls (producers would otherwise wait for a worker that runs
 * only when the caller does: use {@link BackpressurePolicy#REJECT} to be told instead).
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
     * Prepares the engine's shards to run on the caller's thread (instead of {@link CepEngine#start()}).
     *
     * @param engine a configured engine that was not started
     * @param <T>    the event type
     * @return the harness
     */
    public static <T> CepTestHarness<T> start(CepEngine<T> engine) {
        engine.prepare();
        CepTestHarness<T> harness = new CepTestHarness<>(engine);
        for (Agent shard : engine.shards()) {
            AgentInvoker invoker = new AgentInvoker(shard);
            invoker.start();
            harness.invokers.add(invoker);
        }
        return harness;
    }

    /**
     * Runs every shard's duty cycle until none has work left.
     *
     * @return the number of records and steps processed
     */
    public int runUntilIdle() {
        int total = 0;
        boolean busy = true;
        while (busy) {
            busy = false;
            for (AgentInvoker invoker : invokers) {
                int work = invoker.invoke();
                total += work;
                busy |= work > 0;
            }
        }
        return total;
    }

    private static final int SNAPSHOT_MAGIC = 0x43455053; // "CEPS"
    private static final int SNAPSHOT_VERSION = 1;

    /**
     * Runs the shards until idle, then writes a snapshot of the whole engine: every shard's key states, buffered
     * events, watermarks and counters. The producers' own watermark generators are not part of it: after a
     * restore they start over, and their watermarks count once they pass the restored ones.
     *
     * @param out      where to write
     * @param events   writes events
     * @param keyCodec writes keys
     * @throws IOException if writing fails
     */
    public void snapshot(java.io.DataOutput out, io.cepheus.nfa.EventCodec<T> events,
            io.cepheus.nfa.EventCodec<Object> keyCodec) throws java.io.IOException {
        runUntilIdle();
        out.writeInt(SNAPSHOT_MAGIC);
        out.writeInt(SNAPSHOT_VERSION);
        out.writeInt(engine.shardCount());
        out.writeInt(engine.patternList().size());
        for (PatternStream<T> p : engine.patternList()) {
            out.writeUTF(String.join(",", p.pattern().stageNames()));
        }
        for (io.cepheus.runtime.internal.shard.CepShard<T> shard : engine.shardList()) {
            shard.writeState(out, events, keyCodec);
        }
    }

    /**
     * Builds a harness from a snapshot: {@code engine} must be configured as the snapshotted one (same shard
     * count, same patterns in the same order, the same number of producers) and not started.
     *
     * @param engine   the fresh engine
     * @param in       the snapshot
     * @param events   reads events
     * @param keyCodec reads keys
     * @param <T>      the event type
     * @return the harness, ready to continue where the snapshot was taken
     * @throws IOException if the snapshot is corrupt, of another format version or of another engine shape
     */
    public static <T> CepTestHarness<T> restore(CepEngine<T> engine, java.io.DataInput in,
            io.cepheus.nfa.EventCodec<T> events, io.cepheus.nfa.EventCodec<Object> keyCodec)
            throws java.io.IOException {
        if (in.readInt() != SNAPSHOT_MAGIC) {
            throw new java.io.IOException("not a Cepheus engine snapshot");
        }
        int version = in.readInt();
        if (version != SNAPSHOT_VERSION) {
            throw new java.io.IOException("engine snapshot format version " + version + " is not supported (this"
                    + " version reads " + SNAPSHOT_VERSION + ")");
        }
        int shards = in.readInt();
        if (shards != engine.shardCount()) {
            throw new java.io.IOException("the snapshot has " + shards + " shards, this engine " + engine.shardCount()
                    + ": keys would land on other shards");
        }
        int patterns = in.readInt();
        if (patterns != engine.patternList().size()) {
            throw new java.io.IOException("the snapshot has " + patterns + " patterns, this engine "
                    + engine.patternList().size());
        }
        for (PatternStream<T> p : engine.patternList()) {
            String stages = in.readUTF();
            if (!stages.equals(String.join(",", p.pattern().stageNames()))) {
                throw new java.io.IOException("pattern " + p.id() + " differs: snapshot stages " + stages);
            }
        }
        CepTestHarness<T> harness = start(engine);
        for (io.cepheus.runtime.internal.shard.CepShard<T> shard : engine.shardList()) {
            shard.readState(in, events, keyCodec);
        }
        return harness;
    }

    /** Closes the inboxes, drains and flushes every shard (as the engine's close does), then stops them. */
    @Override
    public void close() {
        for (ShardInbox<ShardRecord> inbox : engine.inboxes()) {
            inbox.close();
        }
        runUntilIdle();
        for (AgentInvoker invoker : invokers) {
            invoker.close();
        }
    }
}

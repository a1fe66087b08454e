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

package io.cepheus.runtime.window;

import io.cepheus.runtime.DeadLetter;
import io.cepheus.runtime.DeadLetterHandler;
import io.cepheus.runtime.LateEventHandler;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.SideOutputHandler;
import io.cepheus.runtime.UserCodeException;
import io.cepheus.runtime.internal.output.FailureRoute;
import io.cepheus.runtime.internal.output.SideOutputs;
import io.cepheus.runtime.internal.shard.OperatorRegistry;
import io.cepheus.runtime.internal.shard.UserFailures;
import io.cepheus.runtime.internal.window.WindowOperator;
import io.cepheus.runtime.internal.window.WindowOutput;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The results of one window operator (or window join): say where results, retractions and side outputs go
 * before the engine starts, and read its {@link #metrics()} any time.
 *
 * @param <R> the result type
 */
public final class WindowResults<R> {

    private final OperatorRegistry<?> registry;
    private final AccumulationMode mode;
    private final List<AtomicLongArray> shards = new CopyOnWriteArrayList<>();
    private final SideOutputs sideOutputs = new SideOutputs("WindowResults");
    private volatile WindowResultHandler<R> results = (k, w, r, ts) -> { };
    private volatile WindowResultHandler<R> retractions;
    private int id;


    WindowResults(OperatorRegistry<?> registry, AccumulationMode mode) {
        this.registry = registry;
        this.mode = mode;
    }

    /**
     * @param handler receives every result (with the window's max timestamp)
     * @return this
     */
    public WindowResults<R> results(WindowResultHandler<R> handler) {
        registry.checkNotStarted("results()");
        this.results = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * @param handler receives the retractions of accumulating-and-retracting mode (required in that mode), each
     *                before the result that replaces it
     * @return this
     */
    public WindowResults<R> retractions(WindowResultHandler<R> handler) {
        registry.checkNotStarted("retractions()");
        this.retractions = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /**
     * @param tag     a side output a process function emits to
     * @param handler receives its records
     * @param <X>     their type
     * @return this
     */
    public <X> WindowResults<R> sideOutput(OutputTag<X> tag, SideOutputHandler<X> handler) {
        registry.checkNotStarted("sideOutput()");
        sideOutputs.register(tag, handler);
        return this;
    }

    /** @return the operator's position on the engine */
    public int id() {
        return id;
    }

    void id(int operatorId) {
        this.id = operatorId;
    }

    /** @return the operator's counters summed over the shards (as of each shard's latest batch); any thread */
    public WindowMetrics metrics() {
        long[] sum = new long[WindowOperator.METRICS];
        for (AtomicLongArray shard : shards) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += shard.get(i);
            }
        }
        return new WindowMetrics(sum[WindowOperator.M_WINDOWS], sum[WindowOperator.M_BUFFERED],
                sum[WindowOperator.M_ACCUMULATORS], sum[WindowOperator.M_KEYS], sum[WindowOperator.M_FIRINGS],
                sum[WindowOperator.M_RESULTS], sum[WindowOperator.M_RETRACTIONS], sum[WindowOperator.M_LATE],
                sum[WindowOperator.M_TIMERS]);
    }

    void addShard(AtomicLongArray published) {
        shards.add(published);
    }

    /**
     * @param lateHandler the late-element handler, or null
     * @param lateTag     the side output of late elements instead, or null
     * @param deadHandler the dead-letter handler, or null
     * @param deadTag     the side output of dead letters instead, or null
     * @param failures    where what user code throws is reported (see {@link UserCodeException})
     * @return the output of one shard's operator (single-threaded)
     * @throws IllegalStateException if a side output the operator routes to has no handler
     */
    <T> WindowOutput<T, R> output(LateEventHandler<T> lateHandler, OutputTag<T> lateTag,
            DeadLetterHandler<T> deadHandler, OutputTag<DeadLetter> deadTag, UserFailures failures) {
        WindowResultHandler<R> r = results;
        WindowResultHandler<R> retract = retractions;
        if (mode == AccumulationMode.ACCUMULATING_AND_RETRACTING && retract == null) {
            throw new IllegalStateException("window operator " + id + " is in accumulating-and-retracting mode:"
                    + " set where retractions go with retractions(handler)");
        }
        SideOutputs.Frozen sides = sideOutputs.freeze();
        String operator = "window " + id;
        LateEventHandler<T> late = sides.lateOutput(lateHandler, lateTag, "late elements of " + operator);
        DeadLetterHandler<T> deadLetters = sides.deadLetterOutput(deadHandler, deadTag, "dead letters of " + operator);
        FailureRoute<T> route = new FailureRoute<>(deadLetters, failures, operator);
        return new WindowOutput<>() {
            @Override
            public void result(Object key, Window window, R value, long timestamp) {
                try {
                    r.onResult(key, window, value, timestamp);
                } catch (RuntimeException e) {
                    route.failedOutput("result handler", key, value, timestamp, e);
                }
            }

            @Override
            public void retract(Object key, Window window, R value, long timestamp) {
                try {
                    retract.onResult(key, window, value, timestamp);
                } catch (RuntimeException e) {
                    route.failedOutput("retraction handler", key, value, timestamp, e);
                }
            }

            @Override
            public void late(Object key, T element, long timestamp) {
                route.late(late, "late-element handler", key, element, timestamp);
            }

            @Override
            public void deadLetter(Object key, T element, long timestamp, RuntimeException error) {
                route.failedInput("window function", key, element, timestamp, error);
            }

            @Override
            public void failed(String function, Object key, long timestamp, RuntimeException error) {
                route.failed(function, key, timestamp, error);
            }

            @Override
            public <X> void sideOutput(OutputTag<X> tag, X value, long timestamp) {
                sides.emit(tag, value, timestamp); // runs inside the process function: its failure is the function's
            }
        };
    }
}

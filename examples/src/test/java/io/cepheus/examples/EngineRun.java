package io.cepheus.examples;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Runs an example app on a real engine, deterministically: one shard driven by a {@link CepTestHarness} on
 * the test's thread, events sent in the given order, each followed by the explicit watermark
 * {@code time - 1} (so events of equal time are not late), then the end of input.
 *
 * @param <E> the event type
 */
public final class EngineRun<E> {

    private final ToLongFunction<E> time;
    private final CepEngine<E> engine;
    private final Producer<E> in;
    private final CepTestHarness<E> harness;
    private final List<Alert> alerts = new ArrayList<>();

    /**
     * @param time     the events' time
     * @param register registers the app's patterns on the engine, with the alert sink
     */
    public EngineRun(ToLongFunction<E> time, BiConsumer<CepEngine<E>, Consumer<Alert>> register) {
        engine = CepEngine.<E>builder()
                .shards(1)
                .watermarks(WatermarkStrategy.<E>noWatermarks().withTimestampAssigner((e, ts) -> time.applyAsLong(e)))
                .build();
        register.accept(engine, alerts::add);
        in = engine.newProducer();
        harness = CepTestHarness.start(engine);
        this.time = time;
    }

    /**
     * Sends events, each followed by the watermark just before it, and runs the shard.
     *
     * @param events the events, in time order
     * @return this run
     */
    public EngineRun<E> send(List<E> events) {
        int sent = 0;
        for (E e : events) {
            in.send(e);
            in.watermark(time.applyAsLong(e) - 1);
            if (++sent % 1_000 == 0) {
                // the harness's shard only runs when we say so: keep its inbox from filling up
                harness.runUntilIdle();
            }
        }
        harness.runUntilIdle();
        return this;
    }

    /**
     * @param watermark an explicit watermark
     * @return this run, after the shard processed it
     */
    public EngineRun<E> watermark(long watermark) {
        in.watermark(watermark);
        harness.runUntilIdle();
        return this;
    }

    /** @return the alerts so far, in the order they were raised */
    public List<Alert> alerts() {
        return List.copyOf(alerts);
    }

    /** @return the alerts after the end of input (a final watermark at the end of time) */
    public List<Alert> finish() {
        harness.close();
        return alerts();
    }

    /** @return the engine, for its metrics */
    public CepEngine<E> engine() {
        return engine;
    }

    /**
     * @param events   the events, in time order
     * @param time     their time
     * @param register registers the app
     * @param <E>      the event type
     * @return every alert, in the order they were raised
     */
    public static <E> List<Alert> alertsOf(List<E> events, ToLongFunction<E> time,
            BiConsumer<CepEngine<E>, Consumer<Alert>> register) {
        return new EngineRun<>(time, register).send(events).finish();
    }
}

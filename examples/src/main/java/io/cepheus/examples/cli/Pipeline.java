package io.cepheus.examples.cli;

import io.cepheus.examples.Alert;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * An example app running on engines with threads, as the runner drives it: events and explicit watermarks
 * in, alerts out through the sink given when it was built. Used by the one thread that feeds it.
 *
 * @param <E> the input event type
 */
public interface Pipeline<E> {

    /** Starts the engines' threads. */
    void start();

    /** @param event the next event (blocks while its shard's inbox is full) */
    void send(E event);

    /** @param watermark no event at or before this time will follow */
    void watermark(long watermark);

    /** Moves work between engines, if the app has several; called every so many events and at the end. */
    void pump();

    /** End of input: flushes and stops every engine, in order. */
    void finish();

    /** @return events that arrived behind the watermark so far (never matched) */
    long lateEvents();

    /**
     * Builds an app's pipeline.
     *
     * @param <E> the input event type
     */
    @FunctionalInterface
    interface Factory<E> {
        /**
         * @param shards shards per engine
         * @param alerts receives the alerts, on the engines' threads
         * @return the pipeline, not started
         */
        Pipeline<E> create(int shards, Consumer<Alert> alerts);
    }

    /**
     * The factory of an app that registers its patterns on one engine.
     *
     * @param time     the events' time
     * @param register registers the app's patterns and handlers
     * @param <E>      the event type
     * @return the factory
     */
    static <E> Factory<E> singleEngine(ToLongFunction<E> time, BiConsumer<CepEngine<E>, Consumer<Alert>> register) {
        return (shards, alerts) -> {
            CepEngine<E> engine = engine(shards, time);
            register.accept(engine, alerts);
            return new Single<>(engine, engine.newProducer());
        };
    }

    /**
     * @param shards shards
     * @param time   the events' time
     * @param <E>    the event type
     * @return an engine whose watermarks the runner sends explicitly (derived from the data, not a clock)
     */
    static <E> CepEngine<E> engine(int shards, ToLongFunction<E> time) {
        return CepEngine.<E>builder()
                .shards(shards)
                .watermarks(WatermarkStrategy.<E>noWatermarks().withTimestampAssigner((e, ts) -> time.applyAsLong(e)))
                .build();
    }

    /**
     * One engine, one producer.
     *
     * @param engine the engine
     * @param in     its producer
     * @param <E>    the event type
     */
    record Single<E>(CepEngine<E> engine, Producer<E> in) implements Pipeline<E> {
        @Override
        public void start() {
            engine.start();
        }

        @Override
        public void send(E event) {
            in.send(event);
        }

        @Override
        public void watermark(long watermark) {
            in.watermark(watermark);
        }

        @Override
        public void pump() {
        }

        @Override
        public void finish() {
            engine.close();
        }

        @Override
        public long lateEvents() {
            return lateEventsOf(engine);
        }
    }

    /**
     * @param engine an engine
     * @return its late events so far
     */
    static long lateEventsOf(CepEngine<?> engine) {
        return engine.metrics().total(ShardMetrics::lateEvents);
    }

    /**
     * @param engines engines
     * @return their total late events
     */
    static long lateEventsOf(List<CepEngine<?>> engines) {
        long sum = 0;
        for (CepEngine<?> e : engines) {
            sum += lateEventsOf(e);
        }
        return sum;
    }
}

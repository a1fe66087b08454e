package io.cepheus.examples.apps;

import io.cepheus.examples.Alert;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * Temperature monitoring in two levels, as in Flink CEP's classic example: two warnings (a reading of at
 * least 100°) within 10 s for one rack raise an <em>overheating</em> alert; two overheating alerts of a rack
 * within 20 s, the second hotter than the first, raise a <em>critical</em> one.
 *
 * <p>The second level is a pattern over the first level's alerts, run by a second engine fed from the
 * first's output. The hand-over keeps event time exact without a wall clock: the first engine's handlers
 * queue their alerts; {@link #forwardAlerts()} reads the first engine's watermark, then sends every queued
 * alert and that watermark to the second engine. Every alert at or before that watermark was queued before
 * the watermark was published, and every later one is newer, so no alert is ever late for the second
 * engine. Call {@link #forwardAlerts()} now and then while feeding readings (the command-line runner does it
 * every 256 events), and once more after closing the first engine, before closing the second.
 * Critical alerts come from the second engine's threads, so they may reach the sink after first-level alerts
 * that are newer in event time.
 *
 * <p>Thread use: the first engine's shards add to the queue (a concurrent queue); one thread calls
 * {@link #forwardAlerts()}, the only user of the second engine's producer.
 */
public final class TemperatureMonitoring {

    /** The rule name of the first-level alerts. */
    public static final String OVERHEATING = "overheating";
    /** The rule name of the second-level alerts. */
    public static final String CRITICAL = "critical";
    /** A reading at or above this is a warning. */
    public static final double WARNING_DEGREES = 100.0;

    /**
     * A rack's temperature reading.
     *
     * @param rack        the rack
     * @param temperature degrees Celsius
     * @param time        event time, epoch milliseconds
     */
    public record Reading(String rack, double temperature, long time) {
    }

    /**
     * A first-level alert, the second level's event.
     *
     * @param rack        the rack
     * @param temperature the second warning's temperature
     * @param time        the second warning's time
     */
    public record RackAlert(String rack, double temperature, long time) {
    }

    private final CepEngine<Reading> readings;
    private final CepEngine<RackAlert> alertEngine;
    private final Producer<RackAlert> alertInput;
    private final Queue<RackAlert> handOver = new ConcurrentLinkedQueue<>();

    /**
     * Registers the first level on {@code readings} and builds the second engine.
     *
     * @param readings    an engine not started yet, whose event time is {@link Reading#time()}
     * @param alertShards the second engine's shards
     * @param alerts      receives both levels' alerts (on the shards' threads)
     */
    public TemperatureMonitoring(CepEngine<Reading> readings, int alertShards, Consumer<Alert> alerts) {
        this.readings = readings;
        readings.keyBy(Reading::rack).pattern(overheating()).select((rack, match, ts) -> {
            Reading first = match.events("first").get(0);
            Reading second = match.events("second").get(0);
            handOver.add(new RackAlert(second.rack(), second.temperature(), second.time()));
            alerts.accept(new Alert(OVERHEATING, second.rack(), second.time(), "rack " + second.rack() + ": "
                    + degrees(first.temperature()) + " then " + degrees(second.temperature()) + " within "
                    + Alert.span(second.time() - first.time()), List.of(first, second)));
        });
        // explicit watermarks: forwardAlerts() sends the first engine's
        alertEngine = CepEngine.<RackAlert>builder()
                .shards(alertShards)
                .watermarks(WatermarkStrategy.<RackAlert>noWatermarks().withTimestampAssigner((a, ts) -> a.time()))
                .build();
        alertEngine.keyBy(RackAlert::rack).pattern(risingAlerts()).select((rack, match, ts) -> {
            RackAlert earlier = match.events("earlier").get(0);
            RackAlert later = match.events("later").get(0);
            alerts.accept(new Alert(CRITICAL, later.rack(), later.time(), "rack " + later.rack()
                    + ": overheating twice within " + Alert.span(later.time() - earlier.time()) + ", rising from "
                    + degrees(earlier.temperature()) + " to " + degrees(later.temperature()),
                    List.of(earlier, later)));
        });
        alertInput = alertEngine.newProducer();
    }

    /** @return two warnings of a rack within 10 s; each warning counts in one alert at most */
    public static Pattern<Reading> overheating() {
        return Pattern.<Reading>begin("first", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(r -> r.temperature() >= WARNING_DEGREES)
                .followedBy("second").where(r -> r.temperature() >= WARNING_DEGREES)
                .within(Duration.ofSeconds(10));
    }

    /** @return two alerts of a rack within 20 s, the later one hotter (an iterative condition) */
    public static Pattern<RackAlert> risingAlerts() {
        return Pattern.<RackAlert>begin("earlier", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(a -> true)
                .followedBy("later")
                .where((a, ctx) -> a.temperature() > ctx.eventsForPattern("earlier").get(0).temperature())
                .within(Duration.ofSeconds(20));
    }

    /** @return the second engine; start and close it after the first (or run it with a test harness) */
    public CepEngine<RackAlert> alertEngine() {
        return alertEngine;
    }

    /** Sends the queued alerts, then the first engine's watermark, to the second engine. */
    public void forwardAlerts() {
        // read the watermark first: every alert at or before it is in the queue by now
        long watermark = readings.metrics().watermark();
        for (RackAlert alert = handOver.poll(); alert != null; alert = handOver.poll()) {
            alertInput.send(alert);
        }
        if (watermark != Long.MIN_VALUE) {
            alertInput.watermark(watermark);
        }
    }

    private static String degrees(double celsius) {
        return String.format(Locale.ROOT, "%.1f°", celsius);
    }
}

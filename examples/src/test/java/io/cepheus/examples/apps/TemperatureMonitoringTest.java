package io.cepheus.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.examples.Alert;
import io.cepheus.examples.apps.TemperatureMonitoring.RackAlert;
import io.cepheus.examples.apps.TemperatureMonitoring.Reading;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Overheating alerts from readings, and critical alerts from the alerts, through two engines. */
class TemperatureMonitoringTest {

    private static final long T0 = Instant.parse("2025-03-01T08:00:00Z").toEpochMilli();

    private static Reading r(String rack, double degrees, long millis) {
        return new Reading(rack, degrees, T0 + millis);
    }

    private static final List<Reading> READINGS = sorted(List.of(
            // r1: two alerts 10 s apart, the second hotter: critical
            r("r1", 95, 0), r("r1", 101, 2_000), r("r1", 103, 5_000), r("r1", 104, 12_000), r("r1", 106, 15_000),
            // r2: two alerts, the second cooler: no critical
            r("r2", 100, 0), r("r2", 120, 9_000), r("r2", 101, 20_000), r("r2", 102, 25_000),
            // r3: two warnings exactly 10 s apart: no alert
            r("r3", 100, 0), r("r3", 100, 10_000),
            // r4: two rising alerts 20.5 s apart: no critical
            r("r4", 100, 0), r("r4", 101, 1_000), r("r4", 110, 21_000), r("r4", 111, 21_500)));

    private static List<Reading> sorted(List<Reading> readings) {
        List<Reading> out = new ArrayList<>(readings);
        out.sort(Comparator.comparingLong(Reading::time));
        return out;
    }

    /** Both engines on the test's thread, readings each followed by a watermark, alerts forwarded each time. */
    private static final class TwoLevels {
        final List<Alert> alerts = new ArrayList<>();
        final CepEngine<Reading> readings = CepEngine.<Reading>builder().shards(1)
                .watermarks(WatermarkStrategy.<Reading>noWatermarks().withTimestampAssigner((e, ts) -> e.time()))
                .build();
        final TemperatureMonitoring monitoring = new TemperatureMonitoring(readings, 1, alerts::add);
        final Producer<Reading> in = readings.newProducer();
        final CepTestHarness<Reading> first = CepTestHarness.start(readings);
        final CepTestHarness<RackAlert> second = CepTestHarness.start(monitoring.alertEngine());

        void send(List<Reading> batch) {
            for (Reading reading : batch) {
                in.send(reading);
                in.watermark(reading.time() - 1);
                step();
            }
        }

        void step() {
            first.runUntilIdle();
            monitoring.forwardAlerts();
            second.runUntilIdle();
        }

        List<Alert> finish() {
            first.close();
            monitoring.forwardAlerts();
            second.close();
            return alerts;
        }
    }

    private static Alert overheating(String rack, Reading first, Reading second) {
        return new Alert(TemperatureMonitoring.OVERHEATING, rack, second.time(), "rack " + rack + ": "
                + String.format(java.util.Locale.ROOT, "%.1f° then %.1f° within ", first.temperature(),
                        second.temperature()) + Alert.span(second.time() - first.time()), List.of(first, second));
    }

    private static List<Alert> ofRule(List<Alert> alerts, String rule) {
        return alerts.stream().filter(a -> a.rule().equals(rule)).sorted(Comparator.comparingLong(Alert::time)
                .thenComparing(Alert::key)).toList();
    }

    @Test
    void twoWarningsWithinTenSecondsAreAnAlertAndTwoRisingAlertsWithinTwentyAreCritical() {
        TwoLevels run = new TwoLevels();
        run.send(READINGS);
        List<Alert> alerts = run.finish();

        assertEquals(List.of(
                overheating("r4", r("r4", 100, 0), r("r4", 101, 1_000)),
                overheating("r1", r("r1", 101, 2_000), r("r1", 103, 5_000)),
                overheating("r2", r("r2", 100, 0), r("r2", 120, 9_000)),
                overheating("r1", r("r1", 104, 12_000), r("r1", 106, 15_000)),
                overheating("r4", r("r4", 110, 21_000), r("r4", 111, 21_500)),
                overheating("r2", r("r2", 101, 20_000), r("r2", 102, 25_000))),
                ofRule(alerts, TemperatureMonitoring.OVERHEATING));
        assertEquals(List.of(new Alert(TemperatureMonitoring.CRITICAL, "r1", T0 + 15_000,
                "rack r1: overheating twice within 10s, rising from 103.0° to 106.0°",
                List.of(new RackAlert("r1", 103, T0 + 5_000), new RackAlert("r1", 106, T0 + 15_000)))),
                ofRule(alerts, TemperatureMonitoring.CRITICAL));
    }

    @Test
    void theCriticalAlertComesAsSoonAsTheWatermarkPassesTheSecondAlertNotAtTheEnd() {
        TwoLevels run = new TwoLevels();
        run.send(READINGS.stream().filter(r -> r.time() <= T0 + 15_000).toList());
        assertEquals(List.of(), ofRule(run.alerts, TemperatureMonitoring.CRITICAL));

        run.in.watermark(T0 + 15_000);
        run.step();
        assertEquals(1, ofRule(run.alerts, TemperatureMonitoring.CRITICAL).size(), run.alerts.toString());
        run.finish();
    }
}

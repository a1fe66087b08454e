package io.cepheus.runtime.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in strategies, following the examples of Flink's "Generating Watermarks" documentation. */
class WatermarkStrategyTest {

    private record Reading(long time, boolean marker) {
        static Reading at(long time) {
            return new Reading(time, false);
        }
    }

    private final ManualClock clock = new ManualClock();
    private final RecordingWatermarkOutput out = new RecordingWatermarkOutput();

    @Test
    void boundedOutOfOrdernessIsMaxTimestampMinusBoundMinusOne() {
        // Flink's BoundedOutOfOrdernessGenerator example: a 3.5 s bound
        WatermarkGenerator<Reading> g = WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ofMillis(3_500))
                .createGenerator(clock);
        g.onEvent(Reading.at(10_000), 10_000, out);
        g.onEvent(Reading.at(7_000), 7_000, out);
        assertEquals(List.of(), out.take(), "periodic strategy: nothing is emitted from onEvent");
        g.onPeriodicEmit(out);
        assertEquals(List.of("wm 6499"), out.take());
        g.onEvent(Reading.at(12_000), 12_000, out);
        g.onEvent(Reading.at(9_000), 9_000, out);
        g.onPeriodicEmit(out);
        assertEquals(List.of("wm 8499"), out.take());
    }

    @Test
    void boundedOutOfOrdernessNeverGoesBackAndRepeatsOnEachPeriod() {
        WatermarkGenerator<Reading> g = WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ofSeconds(1))
                .createGenerator(clock);
        g.onEvent(Reading.at(5_000), 5_000, out);
        g.onPeriodicEmit(out);
        g.onEvent(Reading.at(100), 100, out);
        g.onPeriodicEmit(out);
        assertEquals(List.of("wm 3999", "wm 3999"), out.take());
    }

    @Test
    void boundedOutOfOrdernessEmitsNothingBeforeTheFirstEvent() {
        WatermarkGenerator<Reading> g = WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ofSeconds(1))
                .createGenerator(clock);
        g.onPeriodicEmit(out);
        g.onPeriodicEmit(out);
        assertEquals(List.of(), out.take());
        g.onEvent(Reading.at(-5), -5, out);
        g.onPeriodicEmit(out);
        assertEquals(List.of("wm -1006"), out.take(), "negative timestamps are ordinary timestamps");
    }

    @Test
    void boundedOutOfOrdernessTruncatesToMillisecondsAsFlinkDoes() {
        WatermarkGenerator<Reading> g = WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ofNanos(2_999_999))
                .createGenerator(clock);
        g.onEvent(Reading.at(100), 100, out);
        g.onPeriodicEmit(out);
        assertEquals(List.of("wm 97"), out.take());
    }

    @Test
    void boundedOutOfOrdernessSaturatesInsteadOfWrappingRound() {
        WatermarkGenerator<Reading> near = WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ofMillis(10))
                .createGenerator(clock);
        near.onEvent(Reading.at(Long.MIN_VALUE + 3), Long.MIN_VALUE + 3, out);
        near.onPeriodicEmit(out);
        WatermarkGenerator<Reading> huge =
                WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ofSeconds(Long.MAX_VALUE))
                        .createGenerator(clock);
        huge.onEvent(Reading.at(1_000), 1_000, out);
        huge.onPeriodicEmit(out);
        WatermarkGenerator<Reading> top = WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ZERO)
                .createGenerator(clock);
        top.onEvent(Reading.at(Long.MAX_VALUE), Long.MAX_VALUE, out);
        top.onPeriodicEmit(out);
        // 1_000 - Long.MAX_VALUE - 1 is exactly Long.MIN_VALUE + 1_000: no saturation needed there
        assertEquals(List.of("wm " + Long.MIN_VALUE, "wm " + (Long.MIN_VALUE + 1_000), "wm " + (Long.MAX_VALUE - 1)),
                out.take());
    }

    @Test
    void monotonousTimestampsIsABoundOfZero() {
        WatermarkGenerator<Reading> g = WatermarkStrategy.<Reading>forMonotonousTimestamps().createGenerator(clock);
        g.onPeriodicEmit(out);
        g.onEvent(Reading.at(5), 5, out);
        g.onEvent(Reading.at(6), 6, out);
        g.onPeriodicEmit(out);
        g.onEvent(Reading.at(6), 6, out);
        g.onPeriodicEmit(out);
        assertEquals(List.of("wm 5", "wm 5"), out.take(), "an event at the watermark + 1 is still on time");
    }

    @Test
    void eachInputGetsItsOwnGenerator() {
        WatermarkStrategy<Reading> s = WatermarkStrategy.forMonotonousTimestamps();
        WatermarkGenerator<Reading> a = s.createGenerator(clock);
        WatermarkGenerator<Reading> b = s.createGenerator(clock);
        assertNotSame(a, b);
        a.onEvent(Reading.at(100), 100, out);
        b.onEvent(Reading.at(7), 7, out);
        a.onPeriodicEmit(out);
        b.onPeriodicEmit(out);
        assertEquals(List.of("wm 99", "wm 6"), out.take());
    }

    /** Flink's PunctuatedAssigner example: marker events carry the watermark. */
    private static final class MarkerWatermarks implements WatermarkGenerator<Reading> {
        @Override
        public void onEvent(Reading event, long timestamp, WatermarkOutput output) {
            if (event.marker()) {
                output.emitWatermark(event.time());
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            // punctuated: every watermark comes from an event
        }
    }

    @Test
    void customPunctuatedGenerator() {
        WatermarkStrategy<Reading> s = WatermarkStrategy.forGenerator(MarkerWatermarks::new);
        WatermarkGenerator<Reading> g = s.createGenerator(clock);
        assertTrue(g instanceof MarkerWatermarks);
        assertNotSame(g, s.createGenerator(clock));
        g.onEvent(Reading.at(3), 3, out);
        g.onEvent(new Reading(40, true), 40, out);
        g.onPeriodicEmit(out);
        assertEquals(List.of("wm 40"), out.take());
    }

    @Test
    void aSupplierReturningNullIsReportedWhenTheGeneratorIsCreated() {
        WatermarkStrategy<Reading> s = WatermarkStrategy.forGenerator(() -> null);
        NullPointerException e = assertThrows(NullPointerException.class, () -> s.createGenerator(clock));
        assertTrue(e.getMessage().contains("forGenerator returned null"), e.getMessage());
    }

    @Test
    void noWatermarksNeverEmits() {
        WatermarkGenerator<Reading> g = WatermarkStrategy.<Reading>noWatermarks().createGenerator(clock);
        g.onEvent(Reading.at(100), 100, out);
        g.onPeriodicEmit(out);
        assertEquals(List.of(), out.take());
    }

    @Test
    void withoutAnAssignerEventsKeepTheirRecordTimestamp() {
        TimestampAssigner<Reading> a = WatermarkStrategy.<Reading>forMonotonousTimestamps().timestampAssigner();
        assertEquals(77, a.extractTimestamp(Reading.at(5), 77));
        assertEquals(TimestampAssigner.NO_TIMESTAMP, a.extractTimestamp(Reading.at(5), TimestampAssigner.NO_TIMESTAMP));
    }

    @Test
    void theAssignerReadsTheEventAndTheLastOneSetWins() {
        WatermarkStrategy<Reading> byTime = WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ofSeconds(20))
                .withTimestampAssigner((event, recordTimestamp) -> event.time());
        assertEquals(5, byTime.timestampAssigner().extractTimestamp(Reading.at(5), 77));
        WatermarkStrategy<Reading> plusRecord = byTime.withTimestampAssigner((event, ts) -> event.time() + ts);
        assertEquals(82, plusRecord.timestampAssigner().extractTimestamp(Reading.at(5), 77));
        assertEquals(5, byTime.timestampAssigner().extractTimestamp(Reading.at(5), 77), "the original is unchanged");
    }

    @Test
    void builderMethodsLeaveTheOriginalUnchanged() {
        WatermarkStrategy<Reading> base = WatermarkStrategy.forMonotonousTimestamps();
        WatermarkStrategy<Reading> derived = base.withTimestampAssigner((e, ts) -> e.time())
                .withIdleness(Duration.ofSeconds(1))
                .withAutoWatermarkInterval(Duration.ofMillis(50));
        assertNotSame(base, derived);
        assertEquals(7, base.timestampAssigner().extractTimestamp(Reading.at(5), 7));
        assertEquals(WatermarkStrategy.DEFAULT_AUTO_WATERMARK_INTERVAL, base.autoWatermarkInterval());
        assertEquals(Duration.ofMillis(50), derived.autoWatermarkInterval());

        // the base has no idleness: a silent input is never marked idle
        WatermarkGenerator<Reading> plain = base.createGenerator(clock);
        WatermarkGenerator<Reading> detecting = derived.createGenerator(clock);
        plain.onPeriodicEmit(out);
        detecting.onPeriodicEmit(out);
        clock.advance(Duration.ofHours(1));
        plain.onPeriodicEmit(out);
        assertEquals(List.of(), out.take());
        detecting.onPeriodicEmit(out);
        assertEquals(List.of("idle"), out.take());
    }

    @Test
    void autoWatermarkIntervalDefaultsToFlinks200Milliseconds() {
        WatermarkStrategy<Reading> s = WatermarkStrategy.noWatermarks();
        assertEquals(Duration.ofMillis(200), s.autoWatermarkInterval());
        assertEquals(200, s.autoWatermarkIntervalMillis());
        assertEquals(1, s.withAutoWatermarkInterval(Duration.ofNanos(1_500_000)).autoWatermarkIntervalMillis());
    }

    @Test
    void toStringNamesTheParts() {
        String text = WatermarkStrategy.<Reading>forBoundedOutOfOrderness(Duration.ofSeconds(5))
                .withTimestampAssigner((e, ts) -> e.time())
                .withIdleness(Duration.ofMinutes(1))
                .toString();
        assertEquals("WatermarkStrategy[boundedOutOfOrderness=PT5S, timestampAssigner=custom, idleTimeout=PT1M, "
                + "autoWatermarkInterval=PT0.2S]", text);
    }
}

package io.cepheus.runtime.time;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link WatermarkStrategy#withIdleness}: an input silent for the timeout, as seen at periodic emits on the
 * injected clock, is marked idle; its next event marks it active again. Periodic emits every 200 ms here.
 */
class IdlenessTest {

    private static final long PERIOD = 200;

    private final ManualClock clock = new ManualClock();
    private final RecordingWatermarkOutput out = new RecordingWatermarkOutput();
    private final WatermarkGenerator<Long> generator = WatermarkStrategy.<Long>forMonotonousTimestamps()
            .withIdleness(Duration.ofSeconds(1))
            .createGenerator(clock);

    /** Moves the clock to the next period and emits. */
    private List<String> tick() {
        clock.advance(PERIOD);
        generator.onPeriodicEmit(out);
        return out.take();
    }

    private void event(long timestamp) {
        generator.onEvent(timestamp, timestamp, out);
    }

    @Test
    void anInputSilentForTheTimeoutIsMarkedIdleOnce() {
        generator.onPeriodicEmit(out); // t = 0
        clock.advance(50);
        event(10); // t = 50: the last event
        clock.set(PERIOD);
        generator.onPeriodicEmit(out); // t = 200: sees the event
        assertEquals(List.of("wm 9"), out.take());
        for (long t = 400; t <= 1_000; t += PERIOD) {
            // silent for less than the timeout: still active, the watermark keeps being emitted
            assertEquals(List.of("wm 9"), tick(), "at t=" + t);
        }
        assertEquals(List.of("idle"), tick(), "t=1200: 1000 ms after the emit that saw the event");
        assertEquals(List.of(), tick(), "idle: no watermark, and idleness is not repeated");
        assertEquals(List.of(), tick());
    }

    @Test
    void idleIsDeclaredAtTheFirstEmitATimeoutAfterTheLastEmitThatSawEvents() {
        generator.onPeriodicEmit(out); // t = 0
        clock.advance(50);
        event(10);
        clock.set(PERIOD);
        generator.onPeriodicEmit(out); // t = 200 sees the event
        out.take();
        clock.set(1_199);
        generator.onPeriodicEmit(out);
        assertEquals(List.of("wm 9"), out.take(), "999 ms after the emit that saw the event: not yet");
        clock.set(1_200);
        generator.onPeriodicEmit(out);
        assertEquals(List.of("idle"), out.take(), "1000 ms after it (1150 ms after the event): idle");
    }

    @Test
    void theNextEventMarksTheInputActiveBeforeAnyWatermark() {
        generator.onPeriodicEmit(out);
        event(10);
        clock.set(1_000);
        generator.onPeriodicEmit(out); // sees the event
        clock.set(2_000);
        generator.onPeriodicEmit(out);
        assertEquals(List.of("wm 9", "idle"), out.take());

        clock.advance(5);
        event(3_000);
        assertEquals(List.of("active"), out.take());
        event(3_001);
        assertEquals(List.of(), out.take(), "active is reported once");
        assertEquals(List.of("wm 3000"), tick());
        assertEquals(List.of("wm 3000"), tick(), "the timeout counts again from the emit that saw the events");
    }

    @Test
    void anInputThatNeverSendsIsIdleOneTimeoutAfterTheFirstPeriodicEmit() {
        clock.set(1_000_000); // long after the generator was made: that does not count
        generator.onPeriodicEmit(out);
        clock.advance(999);
        generator.onPeriodicEmit(out);
        assertEquals(List.of(), out.take(), "no event yet, so no watermark either");
        clock.advance(1);
        generator.onPeriodicEmit(out);
        assertEquals(List.of("idle"), out.take());
    }

    @Test
    void eventsBetweenEmitsKeepTheInputActive() {
        generator.onPeriodicEmit(out);
        for (int i = 1; i <= 20; i++) {
            event(i * 1_000L);
            assertEquals(List.of("wm " + (i * 1_000L - 1)), tick());
            clock.advance(5 * PERIOD); // long gaps between emits, but each emit has seen an event
        }
    }

    /** Flink's punctuated example behind idleness: the marker's watermark comes after "active". */
    @Test
    void aPunctuatedWatermarkAfterIdlenessFollowsTheActiveMark() {
        WatermarkGenerator<Long> punctuated = WatermarkStrategy.<Long>forGenerator(() -> new WatermarkGenerator<>() {
            @Override
            public void onEvent(Long event, long timestamp, WatermarkOutput output) {
                output.emitWatermark(timestamp);
            }

            @Override
            public void onPeriodicEmit(WatermarkOutput output) {
                // punctuated only
            }
        }).withIdleness(Duration.ofMillis(10)).createGenerator(clock);
        punctuated.onPeriodicEmit(out);
        clock.advance(10);
        punctuated.onPeriodicEmit(out);
        punctuated.onEvent(7L, 7, out);
        assertEquals(List.of("idle", "active", "wm 7"), out.take());
    }

    @Test
    void aClockGoingBackwardsCountsAsNoTimePassing() {
        long[] now = {5_000};
        WatermarkGenerator<Long> g = WatermarkStrategy.<Long>noWatermarks()
                .withIdleness(Duration.ofMillis(100))
                .createGenerator(() -> now[0]);
        g.onPeriodicEmit(out);
        now[0] = -1_000_000; // a wall clock stepped back
        g.onPeriodicEmit(out);
        now[0] = 5_099;
        g.onPeriodicEmit(out);
        assertEquals(List.of(), out.take());
        now[0] = 5_100;
        g.onPeriodicEmit(out);
        assertEquals(List.of("idle"), out.take());
    }

    @Test
    void elapsedTimeIsExactAcrossTheWholeRangeOfTheClock() {
        ManualClock extreme = new ManualClock(Long.MIN_VALUE);
        WatermarkGenerator<Long> g = WatermarkStrategy.<Long>noWatermarks()
                .withIdleness(Duration.ofSeconds(Long.MAX_VALUE)) // saturates to Long.MAX_VALUE ms
                .createGenerator(extreme);
        g.onPeriodicEmit(out);
        extreme.set(Long.MAX_VALUE - 1); // Long.MAX_VALUE * 2 - 1 ms later: overflows a signed difference
        g.onPeriodicEmit(out);
        assertEquals(List.of("idle"), out.take());

        ManualClock late = new ManualClock(Long.MAX_VALUE - 10);
        WatermarkGenerator<Long> never = WatermarkStrategy.<Long>noWatermarks()
                .withIdleness(Duration.ofSeconds(Long.MAX_VALUE))
                .createGenerator(late);
        never.onPeriodicEmit(out);
        late.set(Long.MAX_VALUE);
        never.onPeriodicEmit(out);
        assertEquals(List.of(), out.take());
    }
}

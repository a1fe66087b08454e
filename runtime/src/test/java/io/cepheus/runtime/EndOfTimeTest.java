package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Deadlines at the edges of the {@code long} range through the engine: what would end after {@code Long.MAX_VALUE}
 * saturates there instead of wrapping to a negative time, and nothing inside a window or interval is lost. An
 * element the final watermark does not pass would re-arm its timer at that same watermark for ever: the timeout
 * turns such a livelock into a failure.
 */
@Timeout(60)
class EndOfTimeTest {

    sealed interface Ev permits A, B {
        String key();

        long ts();
    }

    record A(String key, long ts) implements Ev {
    }

    record B(String key, long ts) implements Ev {
    }

    private static CepEngine<Ev> engine() {
        return CepEngine.<Ev>builder().shards(1).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
    }

    @Test
    void aPatternMatchInsideAWindowEndingAfterTheEndOfTime() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("a").where(e -> e instanceof A)
                        .followedBy("b").where(e -> e instanceof B).within(Duration.ofMillis(10)))
                .select((k, m, ts) -> out.add("match " + k + " @" + ts))
                .timeouts((k, m, ts) -> out.add("timeout " + k + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new A("k", Long.MAX_VALUE - 5));
        in.send(new B("k", Long.MAX_VALUE));
        in.send(new A("t", Long.MAX_VALUE - 30));
        in.send(new B("u", Long.MAX_VALUE - 1)); // moves time on for key u only
        h.close(); // the final watermark, Long.MAX_VALUE
        out.sort(null); // two keys at one watermark: their order is the engine's
        assertEquals(List.of("match k @" + Long.MAX_VALUE, "timeout t @" + (Long.MAX_VALUE - 20)), out);
    }

    @Test
    void anIntervalJoinPairsElementsWhoseIntervalEndsAfterTheEndOfTime() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).intervalJoin(A.class, B.class).between(Duration.ZERO, Duration.ofMinutes(5))
                .leftOuter()
                .<String>process((a, b, ctx, c) -> c.collect((b == null ? "unpaid " : "paid ") + a.key() + " @"
                        + ctx.timestamp()))
                .results((k, line, ts) -> out.add(line));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new A("k", Long.MAX_VALUE - 1_000));
        in.send(new B("k", Long.MAX_VALUE - 10));
        in.send(new A("n", Long.MAX_VALUE - 2_000));
        h.close();
        assertEquals(List.of("paid k @" + (Long.MAX_VALUE - 10), "unpaid n @" + Long.MAX_VALUE), out);
    }

    @Test
    void aTemporalJoinJoinsAnElementAtTheEndOfTime() {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).temporalJoin(A.class, B.class).apply((a, b) -> a.key() + " with version " + b.ts())
                .results((k, line, ts) -> out.add(line + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new B("k", Long.MAX_VALUE - 7));
        in.send(new A("k", Long.MAX_VALUE));
        h.close();
        assertEquals(List.of("k with version " + (Long.MAX_VALUE - 7) + " @" + Long.MAX_VALUE), out);
    }
}

package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Results made of matches, with the match's key and time: what Flink writes with {@code select} and
 * {@code flatSelect} is a match handler here (one result, none, or several per match), and a stream takes one
 * match handler or one process function.
 */
class MatchResultsTest {

    record Txn(String card, double amount, long ts) {
    }

    /** Flink's card test: small charges, then a large one within a minute. */
    private static Pattern<Txn> smallsThenLarge() {
        return Pattern.<Txn>begin("small").where(t -> t.amount() < 1).timesOrMore(1)
                .next("large").where(t -> t.amount() > 500).within(Duration.ofMinutes(1));
    }

    private static CepEngine<Txn> engine() {
        return CepEngine.<Txn>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Txn>forMonotonousTimestamps().withTimestampAssigner((t, ts) -> t.ts()))
                .build();
    }

    private static void feed(CepEngine<Txn> engine, List<Txn> txns) {
        Producer<Txn> in = engine.newProducer();
        CepTestHarness<Txn> h = CepTestHarness.start(engine);
        txns.forEach(in::send);
        h.close();
    }

    @Test
    void severalResultsPerMatchAsFlinksFlatSelectEachWithTheMatchsKeyAndTimestamp() {
        CepEngine<Txn> engine = engine();
        List<String> out = new ArrayList<>();
        engine.keyBy(Txn::card).pattern(smallsThenLarge())
                .select((card, match, ts) -> {
                    for (Txn small : match.events("small")) {
                        out.add(card + " probe " + small.amount() + " before " + match.events("large").get(0).amount()
                                + " @" + ts);
                    }
                });
        feed(engine, List.of(new Txn("c1", 0.5, 1_000), new Txn("c1", 0.7, 2_000), new Txn("c1", 900, 3_000),
                new Txn("c2", 40, 3_500)));

        // timesOrMore(1), relaxed inside the loop, then next: the runs ending right before the large charge
        assertEquals(List.of("c1 probe 0.5 before 900.0 @3000", "c1 probe 0.7 before 900.0 @3000",
                "c1 probe 0.7 before 900.0 @3000"), out);
    }

    @Test
    void atMostOneResultPerMatchAsFlinksSelect() {
        CepEngine<Txn> engine = engine();
        List<String> out = new ArrayList<>();
        engine.keyBy(Txn::card).pattern(smallsThenLarge())
                .select((card, match, ts) -> {
                    if (match.events("small").size() > 1) {
                        out.add(card + " burst " + match.events("small").size() + " @" + ts);
                    }
                });
        feed(engine, List.of(new Txn("c1", 0.5, 1_000), new Txn("c1", 0.7, 2_000), new Txn("c1", 900, 3_000)));

        assertEquals(List.of("c1 burst 2 @3000"), out);
    }

    @Test
    void aStreamTakesOneOfSelectAndProcess() {
        CepEngine<Txn> engine = engine();
        PatternStream<Txn> stream = engine.keyBy(Txn::card).pattern(smallsThenLarge())
                .process((k, m, ctx) -> { });

        IllegalStateException twice = assertThrows(IllegalStateException.class,
                () -> stream.process((k, m, ctx) -> { }));
        assertTrue(twice.getMessage().contains("already has a process function"), twice.getMessage());

        stream.select((k, m, ts) -> { });
        engine.newProducer();
        IllegalStateException both = assertThrows(IllegalStateException.class, () -> CepTestHarness.start(engine));
        assertTrue(both.getMessage().contains("select(handler) and a process function"), both.getMessage());
    }

    @Test
    void aThrowingProcessFunctionIsNamedInTheFailure() {
        CepEngine<Txn> engine = engine();
        engine.keyBy(Txn::card).pattern(smallsThenLarge())
                .process((card, match, ctx) -> {
                    throw new IllegalStateException("bug");
                });
        Producer<Txn> in = engine.newProducer();
        CepTestHarness<Txn> h = CepTestHarness.start(engine);
        in.send(new Txn("c1", 0.5, 1_000));
        in.send(new Txn("c1", 900, 2_000));
        in.watermark(5_000);

        UserCodeException e = assertThrows(UserCodeException.class, h::runUntilIdle);
        assertEquals("process function", e.function());
        assertEquals("c1", e.key());
        assertEquals(2_000, e.timestamp());
    }
}

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

/** Flink's {@code select} and {@code flatSelect}: results made of matches, with the match's key and time. */
class SelectFunctionsTest {

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
    void flatSelectHandsOnEveryResultWithTheMatchsKeyAndTimestamp() {
        CepEngine<Txn> engine = engine();
        List<String> out = new ArrayList<>();
        engine.keyBy(Txn::card).pattern(smallsThenLarge())
                .flatSelect((match, results) -> {
                    for (Txn small : match.events("small")) {
                        results.accept("probe " + small.amount() + " before " + match.events("large").get(0).amount());
                    }
                }, (card, line, ts) -> out.add(card + " " + line + " @" + ts));
        feed(engine, List.of(new Txn("c1", 0.5, 1_000), new Txn("c1", 0.7, 2_000), new Txn("c1", 900, 3_000),
                new Txn("c2", 40, 3_500)));

        // timesOrMore(1), relaxed inside the loop, then next: the runs ending right before the large charge
        assertEquals(List.of("c1 probe 0.5 before 900.0 @3000", "c1 probe 0.7 before 900.0 @3000",
                "c1 probe 0.7 before 900.0 @3000"), out);
    }

    @Test
    void selectMakesOneResultPerMatchAndNullMeansNone() {
        CepEngine<Txn> engine = engine();
        List<String> out = new ArrayList<>();
        engine.keyBy(Txn::card).pattern(smallsThenLarge())
                .select(match -> match.events("small").size() > 1 ? "burst " + match.events("small").size() : null,
                        (card, line, ts) -> out.add(card + " " + line + " @" + ts));
        feed(engine, List.of(new Txn("c1", 0.5, 1_000), new Txn("c1", 0.7, 2_000), new Txn("c1", 900, 3_000)));

        assertEquals(List.of("c1 burst 2 @3000"), out);
    }

    @Test
    void aStreamTakesOneOfSelectFlatSelectAndProcess() {
        CepEngine<Txn> engine = engine();
        PatternStream<Txn> stream = engine.keyBy(Txn::card).pattern(smallsThenLarge())
                .flatSelect((m, out) -> { }, (k, r, ts) -> { });

        IllegalStateException twice = assertThrows(IllegalStateException.class,
                () -> stream.process((k, m, ctx) -> { }));
        assertTrue(twice.getMessage().contains("already has a flatSelect function"), twice.getMessage());

        stream.select((k, m, ts) -> { });
        engine.newProducer();
        IllegalStateException both = assertThrows(IllegalStateException.class, () -> CepTestHarness.start(engine));
        assertTrue(both.getMessage().contains("select(handler) and a flatSelect function"), both.getMessage());
    }

    @Test
    void aThrowingFlatSelectFunctionIsNamedInTheFailure() {
        CepEngine<Txn> engine = engine();
        engine.keyBy(Txn::card).pattern(smallsThenLarge())
                .flatSelect((match, results) -> {
                    throw new IllegalStateException("bug");
                }, (card, line, ts) -> { });
        Producer<Txn> in = engine.newProducer();
        CepTestHarness<Txn> h = CepTestHarness.start(engine);
        in.send(new Txn("c1", 0.5, 1_000));
        in.send(new Txn("c1", 900, 2_000));
        in.watermark(5_000);

        UserCodeException e = assertThrows(UserCodeException.class, h::runUntilIdle);
        assertEquals("flatSelect function", e.function());
        assertEquals("c1", e.key());
        assertEquals(2_000, e.timestamp());
    }
}

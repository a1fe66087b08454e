package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.PartialMatch;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A key's open partial matches, asked from outside the shard ({@link PatternStream#partialMatches}): answered by the
 * shard that owns the key at one point of its input, with the waiting state, the events by stage and the deadline.
 */
class PartialMatchInspectionTest {

    record Ev(String key, char kind, long ts) {
    }

    private static final Pattern<Ev> A_B_C = Pattern.<Ev>begin("a").where(e -> e.kind() == 'a')
            .followedBy("b").where(e -> e.kind() == 'b').followedBy("c").where(e -> e.kind() == 'c')
            .within(Duration.ofMillis(100));

    private static CepEngine<Ev> engine() {
        return CepEngine.<Ev>builder().shards(3).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
    }

    private static String describe(PartialMatch<Ev> p) {
        return p.state() + " " + p.events().asMap().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().stream().map(x -> x.kind() + "@" + x.ts()).toList())
                .toList() + " from " + p.startTime() + " until " + p.deadline();
    }

    @Test
    void aKeysPartialMatchesAreListedByItsShard() throws Exception {
        CepEngine<Ev> engine = engine();
        PatternStream<Ev> abc = engine.keyBy(Ev::key).pattern(A_B_C).select((k, m, ts) -> { });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'a', 10));
        in.send(new Ev("u1", 'b', 20));
        in.send(new Ev("u1", 'a', 30));
        in.send(new Ev("u2", 'a', 40));
        in.watermark(50);
        h.runUntilIdle();
        CompletableFuture<List<PartialMatch<Ev>>> u1 = abc.partialMatches("u1");
        assertFalse(u1.isDone(), "the shard answers when it runs");
        h.runUntilIdle();
        assertEquals(List.of("b [a=[a@30]] from 30 until 130", "c [a=[a@10], b=[b@20]] from 10 until 110"),
                u1.get().stream().map(PartialMatchInspectionTest::describe).sorted().toList());
        CompletableFuture<List<PartialMatch<Ev>>> nobody = abc.partialMatches("nobody");
        h.runUntilIdle();
        assertEquals(List.of(), nobody.get(), "an unknown key has none");
        in.send(new Ev("u1", 'c', 60));
        in.watermark(200);
        CompletableFuture<List<PartialMatch<Ev>>> after = abc.partialMatches("u1");
        h.runUntilIdle();
        assertEquals(List.of(), after.get(), "asked after the c and the watermark in the input: matched and timed out");
        h.close();
    }

    @Test
    void theAnswerIsTheStateAtTheQuestionsPointOfTheInput() throws Exception {
        CepEngine<Ev> engine = engine();
        PatternStream<Ev> abc = engine.keyBy(Ev::key).pattern(A_B_C).select((k, m, ts) -> { });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'a', 10));
        in.watermark(15);
        CompletableFuture<List<PartialMatch<Ev>>> before = abc.partialMatches("u1");
        in.send(new Ev("u1", 'b', 20));
        in.watermark(25);
        CompletableFuture<List<PartialMatch<Ev>>> later = abc.partialMatches("u1");
        h.runUntilIdle();
        assertEquals(List.of("b [a=[a@10]] from 10 until 110"), before.get().stream()
                .map(PartialMatchInspectionTest::describe).toList());
        assertEquals(List.of("c [a=[a@10], b=[b@20]] from 10 until 110"), later.get().stream()
                .map(PartialMatchInspectionTest::describe).toList());
        h.close();
    }

    @Test
    void aRuleSetListsTheKeysPartialMatchesOfEachVersionThatHasSome() throws Exception {
        CepEngine<Ev> engine = engine();
        io.cepheus.runtime.rules.RuleStream<Ev> rules = engine.keyBy(Ev::key).rules().select((r, k, m, ts) -> { });
        rules.put("abc", 1, A_B_C);
        rules.put("just-b", 1, Pattern.<Ev>begin("b").where(e -> e.kind() == 'b'));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'a', 10));
        in.watermark(15);
        h.runUntilIdle();
        CompletableFuture<?> replaced = rules.put("abc", 2, A_B_C); // version 1 drains what it began
        h.runUntilIdle();
        replaced.get();
        in.send(new Ev("u1", 'a', 20));
        in.watermark(25);
        CompletableFuture<java.util.Map<io.cepheus.runtime.rules.RuleVersion, List<PartialMatch<Ev>>>> open =
                rules.partialMatches("u1");
        h.runUntilIdle();
        java.util.Map<String, List<String>> byVersion = new java.util.LinkedHashMap<>();
        open.get().forEach((rule, partial) -> byVersion.put(rule.toString(),
                partial.stream().map(PartialMatchInspectionTest::describe).toList()));
        assertEquals(java.util.Map.of("abc v1", List.of("b [a=[a@10]] from 10 until 110"),
                "abc v2", List.of("b [a=[a@20]] from 20 until 120")), byVersion,
                "the draining version and the one in force; just-b holds nothing");
        h.close();
    }

    @Test
    void aRunningEngineAnswersAnyThread() throws Exception {
        CepEngine<Ev> engine = engine();
        PatternStream<Ev> abc = engine.keyBy(Ev::key).pattern(A_B_C).select((k, m, ts) -> { });
        Producer<Ev> in = engine.newProducer();
        assertThrows(IllegalStateException.class, () -> abc.partialMatches("u1"), "not running yet");
        engine.start();
        in.send(new Ev("u1", 'a', 10));
        in.watermark(15);
        List<PartialMatch<Ev>> open = abc.partialMatches("u1").get(30, TimeUnit.SECONDS);
        assertEquals(1, open.size());
        assertTrue(open.get(0).events().events("a").get(0).ts() == 10);
        engine.close();
    }
}

package io.cepheus.runtime.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.RecordCodec;
import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A live rule set on the engine, driven step by step by the test harness: rules in force at start, added, replaced
 * (draining or discarding the old version) and removed at a point of the input, every match and timeout naming its
 * version; the report of where a change took effect; per-rule counters; snapshots with another rule set.
 */
class RuleSetTest {

    /** An event: a key, a type letter, a value, a time. */
    record Ev(String key, char type, int value, long ts) {
        @Override
        public String toString() {
            return "" + type + value + "@" + ts;
        }
    }

    static final io.cepheus.nfa.EventCodec<Ev> EVENTS = RecordCodec.<Ev>builder().string(Ev::key)
            .int32(e -> e.type()).int32(Ev::value).int64(Ev::ts)
            .build(f -> new Ev(f.string(), (char) f.int32(), f.int32(), f.int64()));
    static final io.cepheus.nfa.EventCodec<Object> KEYS = RecordCodec.<Object>builder().string(k -> (String) k)
            .build(f -> f.string());

    private static Pattern<Ev> aThenB(int minValue) {
        return Pattern.<Ev>begin("a").where(e -> e.type() == 'A' && e.value() >= minValue)
                .followedBy("b").where(e -> e.type() == 'B').within(Duration.ofMillis(100));
    }

    private static Pattern<Ev> single(char type) {
        return Pattern.<Ev>begin("x").where(e -> e.type() == type);
    }

    /** A harness-driven engine with one rule set whose outputs are lines, in order. */
    private static final class Rig {
        final List<String> out = new ArrayList<>();
        final CepEngine<Ev> engine;
        final RuleStream<Ev> rules;
        final Producer<Ev> in;
        CepTestHarness<Ev> harness;

        Rig(int shards, boolean snapshots) {
            CepEngine.Builder<Ev> b = CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0))
                    .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> e.ts()));
            if (snapshots) {
                b.snapshots(EVENTS, KEYS);
            }
            engine = b.build();
            rules = engine.keyBy(Ev::key).rules()
                    .select((rule, key, m, ts) -> out.add("MATCH " + rule + " " + key + " " + m.allEvents() + "@" + ts))
                    .timeouts((rule, key, m, ts) -> out.add("TIMEOUT " + rule + " " + key + " " + m.allEvents()
                            + "@" + ts))
                    .lateEvents((key, e, ts) -> out.add("LATE " + key + " " + e));
            in = engine.newProducer();
        }

        Rig start() {
            harness = CepTestHarness.start(engine);
            return this;
        }

        void send(String key, char type, int value, long ts) {
            in.send(new Ev(key, type, value, ts));
        }

        /** Runs the shards until the change is applied everywhere (a harness runs them only when asked). */
        RuleChange apply(java.util.concurrent.CompletableFuture<RuleChange> change) {
            harness.runUntilIdle();
            return change.join();
        }

        void watermark(long w) {
            in.watermark(w);
            harness.runUntilIdle();
        }

        List<String> close() {
            harness.runUntilIdle();
            harness.close();
            return out;
        }
    }

    @Test
    void rulesInForceAtStartMatchAndEveryResultNamesItsVersion() {
        Rig r = new Rig(1, false);
        r.rules.put("a-then-b", 1, aThenB(0));
        r.rules.put("just-c", 4, single('C'));
        r.start();
        r.send("k", 'A', 1, 1);
        r.send("k", 'C', 1, 2);
        r.send("k", 'B', 1, 3);
        r.send("k", 'A', 1, 4);
        assertEquals(List.of("MATCH just-c v4 k [C1@2]@2", "MATCH a-then-b v1 k [A1@1, B1@3]@3",
                "TIMEOUT a-then-b v1 k [A1@4]@104"), r.close());
        assertEquals(List.of(new RuleVersion("a-then-b", 1), new RuleVersion("just-c", 4)), r.rules.rules());
    }

    @Test
    void aRuleAddedWhileRunningSeesOnlyTheEventsSentAfterItEvenThoseBufferedEarlier() {
        Rig r = new Rig(1, false).start();
        r.send("k", 'C', 1, 10); // buffered: the watermark has not passed it when the rule arrives
        RuleChange change = r.apply(r.rules.put("just-c", 1, single('C')));
        r.send("k", 'C', 2, 5);
        r.send("k", 'C', 3, 20);
        assertEquals(List.of("MATCH just-c v1 k [C2@5]@5", "MATCH just-c v1 k [C3@20]@20"), r.close());
        assertEquals(RuleChange.Kind.ADDED, change.kind());
        assertEquals(1, change.eventsBefore(0));
        assertEquals(1, change.cuts().get(0).events());
        assertEquals(Long.MIN_VALUE, change.cuts().get(0).watermark());
    }

    @Test
    void aDrainedVersionFinishesWhatItStartedWithLaterEventsWhileOnlyTheNewVersionStartsAnything() {
        Rig r = new Rig(1, false);
        r.rules.put("a-then-b", 1, aThenB(0));
        r.start();
        r.send("k", 'A', 1, 1);
        r.watermark(1); // v1 holds a partial match A1
        RuleChange change = r.apply(r.rules.put("a-then-b", 2, aThenB(5)));
        r.send("k", 'A', 7, 2); // sent after: starts v2 only (it would start v1 too)
        r.send("k", 'B', 1, 3); // extends v1's A1 and v2's A7
        r.send("k", 'A', 2, 4); // too small for v2; v1 starts nothing any more
        assertEquals(List.of("MATCH a-then-b v1 k [A1@1, B1@3]@3", "MATCH a-then-b v2 k [A7@2, B1@3]@3"),
                r.close());
        assertEquals(RuleChange.Kind.REPLACED, change.kind());
        assertEquals(new RuleVersion("a-then-b", 2), change.added());
        assertEquals(new RuleVersion("a-then-b", 1), change.retired());
        assertEquals(RetirePolicy.DRAIN, change.policy());
        List<RuleMetrics> metrics = r.rules.metrics();
        assertEquals(2, metrics.size(), metrics.toString());
        assertEquals(1, metrics.get(0).matches());
        assertTrue(!metrics.get(0).inForce() && metrics.get(1).inForce(), metrics.toString());
    }

    @Test
    void aDiscardedVersionDropsWhatItStartedWithoutTimeoutsAndCountsIt() {
        Rig r = new Rig(1, false);
        r.rules.put("a-then-b", 1, aThenB(0));
        r.start();
        r.send("k", 'A', 1, 1);
        r.send("j", 'A', 1, 1);
        r.watermark(1);
        r.apply(r.rules.put("a-then-b", 2, aThenB(5), RetirePolicy.DISCARD));
        r.send("k", 'B', 1, 3);
        r.send("k", 'A', 9, 50);
        r.watermark(60);
        assertEquals(List.of("TIMEOUT a-then-b v2 k [A9@50]@150"), r.close());
        RuleMetrics v1 = r.rules.metrics().get(0);
        assertEquals(new RuleVersion("a-then-b", 1), v1.rule());
        assertEquals(2, v1.discardedPartialMatches());
        assertEquals(0, v1.timeouts());
    }

    /** A key's id is freed once no version holds anything for it, whichever way the last one let it go. */
    @Test
    void aKeyIsFreedOnceNoVersionHoldsAnythingForIt() {
        Rig r = new Rig(1, false);
        r.rules.put("low", 1, aThenB(0));
        r.rules.put("high", 1, aThenB(5));
        r.start();
        r.send("k", 'A', 7, 1); // a partial match in both rules
        r.send("j", 'X', 0, 1); // in none
        r.watermark(1);
        assertEquals(1, liveKeys(r), "k is held, j was freed");
        r.apply(r.rules.put("low", 2, aThenB(0), RetirePolicy.DISCARD));
        r.watermark(2);
        assertEquals(1, liveKeys(r), "low v1 dropped k's partial match; high still holds it");
        r.send("k", 'B', 1, 3);
        r.watermark(3);
        assertEquals(0, liveKeys(r), "high matched and let k go; low v2 never held it");
        assertEquals(List.of("MATCH high v1 k [A7@1, B1@3]@3"), r.close());
    }

    private static long liveKeys(Rig r) {
        return r.engine.metrics().shards().stream().mapToLong(io.cepheus.runtime.ShardMetrics::keys).sum();
    }

    @Test
    void aDiscardedVersionStillMatchesTheEventsSentBeforeTheChange() {
        Rig r = new Rig(1, false);
        r.rules.put("a-then-b", 1, aThenB(0));
        r.start();
        r.send("k", 'A', 1, 1);
        r.send("k", 'B', 1, 2); // sent before, still waiting for the watermark
        r.apply(r.rules.remove("a-then-b", RetirePolicy.DISCARD));
        r.send("k", 'A', 1, 3);
        r.send("k", 'B', 1, 4);
        assertEquals(List.of("MATCH a-then-b v1 k [A1@1, B1@2]@2"), r.close());
        assertEquals(List.of(), r.rules.rules());
    }

    @Test
    void changesThatCannotBeAreRefusedAndChangeNothing() {
        Rig r = new Rig(1, false);
        r.rules.put("r", 3, single('C'));
        r.start();
        assertThrows(IllegalArgumentException.class, () -> r.rules.put("r", 3, single('D')));
        assertThrows(IllegalArgumentException.class, () -> r.rules.put("r", 2, single('D')));
        assertThrows(IllegalArgumentException.class, () -> r.rules.remove("nope"));
        assertThrows(MalformedPatternException.class, () -> r.rules.put("bad", 1,
                Pattern.<Ev>begin("x").notFollowedBy("y")));
        r.send("k", 'C', 1, 1);
        assertEquals(List.of("MATCH r v3 k [C1@1]@1"), r.close());
        assertThrows(IllegalStateException.class, () -> r.rules.put("r", 4, single('D')), "closed");
    }

    @Test
    void lateEventsAreReportedOnceForTheRuleSet() {
        Rig r = new Rig(1, false);
        r.rules.put("c", 1, single('C'));
        r.rules.put("d", 1, single('D'));
        r.start();
        r.watermark(10);
        r.send("k", 'C', 1, 5);
        assertEquals(List.of("LATE k C1@5"), r.close());
        assertEquals(1, r.rules.lateEvents());
    }

    @Test
    void everyShardAppliesAChangeAtOnePointOfTheProducersInput() {
        Rig r = new Rig(3, false);
        r.start();
        for (int i = 0; i < 12; i++) {
            r.send("k" + i, 'C', i, 10 + i);
        }
        RuleChange change = r.apply(r.rules.put("c", 1, single('C')));
        for (int i = 0; i < 12; i++) {
            r.send("k" + i, 'C', 100 + i, 30 + i);
        }
        List<String> out = r.close();
        assertEquals(12, out.size(), out.toString());
        assertTrue(out.stream().allMatch(line -> line.matches("MATCH c v1 k\\d+ \\[C1\\d\\d@\\d+\\]@\\d+")),
                "only the events sent after the change match: " + out);
        assertEquals(3, change.cuts().size());
        assertEquals(12, change.eventsBefore(0));
        assertEquals(12, change.cuts().stream().mapToLong(RuleChange.ShardCut::events).sum());
    }

    @Test
    void aSnapshotRestoresTheRulesWhoseVersionIsUnchangedAndReportsWhatItDropped() throws IOException {
        Rig before = new Rig(2, true);
        before.rules.put("a-then-b", 1, aThenB(0));
        before.rules.put("gone", 1, aThenB(0));
        before.rules.put("old", 1, aThenB(0));
        before.start();
        before.send("k", 'A', 1, 1);
        before.send("j", 'A', 1, 1);
        before.watermark(1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            before.harness.snapshot(out, EVENTS, KEYS);
        }

        Rig after = new Rig(2, true);
        after.rules.put("a-then-b", 1, aThenB(0)); // unchanged: kept
        after.rules.put("old", 2, aThenB(0));      // another version: v1's state dropped, v2 starts empty
        after.rules.put("new", 1, aThenB(0));      // new: starts empty
        after.engine.restoreFrom(bytes.toByteArray());
        after.start();
        after.send("k", 'B', 1, 5);
        List<String> out = after.close();
        assertEquals(List.of("MATCH a-then-b v1 k [A1@1, B1@5]@5", "TIMEOUT a-then-b v1 j [A1@1]@101"), out);
        RestoredRules restored = after.rules.restored();
        assertEquals(List.of(new RuleVersion("a-then-b", 1)), restored.kept());
        assertEquals(List.of(new RuleVersion("old", 2), new RuleVersion("new", 1)), restored.startedEmpty());
        assertEquals(List.of(new RestoredRules.Dropped(new RuleVersion("gone", 1), 2, 2),
                new RestoredRules.Dropped(new RuleVersion("old", 1), 2, 2)), restored.dropped());
    }

    @Test
    void aRestoreIntoARuleOfAnotherStructureUnderTheSameVersionIsRefused() throws IOException {
        Rig before = new Rig(1, true);
        before.rules.put("r", 1, aThenB(0));
        before.start();
        before.send("k", 'A', 1, 1);
        before.watermark(1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            before.harness.snapshot(out, EVENTS, KEYS);
        }
        Rig after = new Rig(1, true);
        after.rules.put("r", 1, single('A')); // same id and version, another pattern
        after.engine.restoreFrom(bytes.toByteArray());
        IllegalStateException e = assertThrows(IllegalStateException.class, after::start);
        assertTrue(e.getMessage().contains("rule r v1 has another structure"), e.getMessage());
    }

    static String lines(List<String> out) {
        return out.stream().collect(Collectors.joining("\n"));
    }
}

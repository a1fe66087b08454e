package io.cepheus.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The temporal join through the real engine against a reference, over random out-of-order elements and versions
 * with per-input watermarks. Reference: late iff {@code ts < min(watermarks)} on arrival; an on-time element joins
 * the on-time version of its key with the largest timestamp at or before its own (the last to arrive among
 * equal timestamps), or none, and is emitted at the first token after which the watermark exceeds its timestamp.
 * After the final watermark nothing waits, and each key keeps exactly its latest version.
 */
class TemporalJoinPropertyTest {

    private static final long SEED = PropertySeeds.seed(0x7E3F0A1L);

    /** An element (version == false) or a version, with a unique number. */
    private record Ev(boolean version, String key, int n, long ts) {
    }

    private record Token(Ev element, char wmSide, long wm) {
    }

    @Test
    void matchesTheReference() {
        PropertySeeds.reportingSeed(SEED, "runtime", "TemporalJoinPropertyTest", () ->
                qt().withFixedSeed(SEED).withExamples(400).forAll(longs().all())
                        .checkAssert(s -> check(new Random(s), s)));
    }

    /** The example of the README: a rate arriving after the order it prices, but before the watermark. */
    @Test
    void anOutOfOrderVersionStillCountsUntilTheWatermarkPasses() {
        List<Token> tokens = List.of(
                new Token(new Ev(true, "EUR", 0, 100), ' ', 0),
                new Token(new Ev(false, "EUR", 1, 250), ' ', 0),
                new Token(new Ev(true, "EUR", 2, 200), ' ', 0),   // out of order, still on time
                new Token(null, ' ', 250),                        // 250 not passed yet: nothing
                new Token(null, ' ', 251),
                new Token(new Ev(true, "EUR", 3, 240), ' ', 0)); // late version
        List<List<String>> out = run(tokens, false, 1).actual;
        assertEquals(List.of(List.of(), List.of(), List.of(), List.of(), List.of("J EUR #1 v#2"), List.of("LV #3"),
                List.of()), out);
    }

    private static void check(Random rnd, long scenarioSeed) {
        boolean joinNull = rnd.nextBoolean();
        int shards = 1 + rnd.nextInt(2);
        List<Token> tokens = new ArrayList<>();
        long[] wm = {0, 0};
        int count = rnd.nextInt(60);
        for (int i = 0; i < count; i++) {
            int kind = rnd.nextInt(10);
            if (kind < 7) {
                long ts = Math.max(0, Math.max(wm[0], wm[1]) + rnd.nextInt(20) - 6);
                tokens.add(new Token(new Ev(rnd.nextInt(5) < 2, "k" + rnd.nextInt(3), i, ts), ' ', 0));
            } else {
                char side = kind == 7 ? 'S' : kind == 8 ? 'V' : ' ';
                long w = Math.max(side == 'V' ? wm[1] : wm[0], 0) + rnd.nextInt(8) - 1;
                if (side != 'V') {
                    wm[0] = Math.max(wm[0], w);
                }
                if (side != 'S') {
                    wm[1] = Math.max(wm[1], w);
                }
                tokens.add(new Token(null, side, w));
            }
        }
        String scenario = "scenario " + scenarioSeed + ": joinNull=" + joinNull + " shards=" + shards + " tokens="
                + tokens;
        Run run = run(tokens, joinNull, shards);
        assertEquals(reference(tokens, joinNull), run.actual, scenario);
        assertEquals(0, run.metrics.bufferedElements(), scenario);
        assertEquals(run.keysWithVersions, run.metrics.versions(), "one version per key remains; " + scenario);
    }

    private record Run(List<List<String>> actual, TemporalJoinMetrics metrics, long keysWithVersions) {
    }

    private static Run run(List<Token> tokens, boolean joinNull, int shards) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shards).inboxCapacity(256).build();
        List<String> current = new ArrayList<>();
        var join = engine.keyBy(Ev::key).temporalJoin(e -> e.version() ? null : e, e -> e.version() ? e : null);
        if (joinNull) {
            join.missingVersionJoinsNull();
        }
        TemporalJoinStream<Ev, Ev, Ev, String> stream = join.<String>apply((e, v) ->
                        "J " + e.key() + " #" + e.n() + (v == null ? " null" : " v#" + v.n()))
                .results((key, line, ts) -> current.add(line))
                .unmatched((key, e, ts, at) -> current.add("U " + key + " #" + e.n()))
                .lateElements((key, e, ts) -> current.add("LE #" + e.n()))
                .lateVersions((key, v, ts) -> current.add("LV #" + v.n()));
        Producer<Ev> elements = engine.newProducer();
        Producer<Ev> versions = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        List<List<String>> actual = new ArrayList<>();
        Set<String> keysWithVersions = new HashSet<>();
        for (Token t : tokens) {
            if (t.element() != null) {
                (t.element().version() ? versions : elements).send(t.element(), t.element().ts());
            } else {
                if (t.wmSide() != 'V') {
                    elements.watermark(t.wm());
                }
                if (t.wmSide() != 'S') {
                    versions.watermark(t.wm());
                }
            }
            harness.runUntilIdle();
            actual.add(sorted(current));
            current.clear();
        }
        elements.watermark(Long.MAX_VALUE);
        versions.watermark(Long.MAX_VALUE);
        harness.runUntilIdle();
        actual.add(sorted(current));
        TemporalJoinMetrics m = stream.metrics();
        harness.close();
        // keys that received an on-time version: recomputed by the reference below through the LV lines
        long w = Long.MIN_VALUE;
        long wsElements = Long.MIN_VALUE;
        long wsVersions = Long.MIN_VALUE;
        for (Token t : tokens) {
            w = Math.min(wsElements, wsVersions);
            if (t.element() != null && t.element().version() && t.element().ts() >= w) {
                keysWithVersions.add(t.element().key());
            } else if (t.element() == null) {
                if (t.wmSide() != 'V') {
                    wsElements = Math.max(wsElements, t.wm());
                }
                if (t.wmSide() != 'S') {
                    wsVersions = Math.max(wsVersions, t.wm());
                }
            }
        }
        return new Run(actual, m, keysWithVersions.size());
    }

    private static List<List<String>> reference(List<Token> tokens, boolean joinNull) {
        long ws = Long.MIN_VALUE;
        long wv = Long.MIN_VALUE;
        List<Ev> versions = new ArrayList<>();
        List<Ev> elements = new ArrayList<>();
        List<Integer> arrivedAt = new ArrayList<>();
        List<List<String>> groups = new ArrayList<>();
        long[] watermarkAfter = new long[tokens.size() + 1];
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            List<String> group = new ArrayList<>();
            long w = Math.min(ws, wv);
            if (t.element() != null) {
                Ev e = t.element();
                if (e.ts() < w) {
                    group.add((e.version() ? "LV #" : "LE #") + e.n());
                } else if (e.version()) {
                    versions.add(e);
                } else {
                    elements.add(e);
                    arrivedAt.add(i);
                }
            } else {
                if (t.wmSide() != 'V') {
                    ws = Math.max(ws, t.wm());
                }
                if (t.wmSide() != 'S') {
                    wv = Math.max(wv, t.wm());
                }
            }
            watermarkAfter[i] = Math.min(ws, wv);
            groups.add(group);
        }
        watermarkAfter[tokens.size()] = Long.MAX_VALUE;
        groups.add(new ArrayList<>());
        for (int j = 0; j < elements.size(); j++) {
            Ev e = elements.get(j);
            Ev best = null;
            for (Ev v : versions) { // arrival order: a later one with an equal timestamp wins
                if (v.key().equals(e.key()) && v.ts() <= e.ts() && (best == null || v.ts() >= best.ts())) {
                    best = v;
                }
            }
            String line = best != null ? "J " + e.key() + " #" + e.n() + " v#" + best.n()
                    : joinNull ? "J " + e.key() + " #" + e.n() + " null" : "U " + e.key() + " #" + e.n();
            for (int i = arrivedAt.get(j); i <= tokens.size(); i++) {
                if (watermarkAfter[i] > e.ts() || i == tokens.size()) {
                    groups.get(i).add(line);
                    break;
                }
            }
        }
        List<List<String>> out = new ArrayList<>();
        for (List<String> g : groups) {
            out.add(sorted(g));
        }
        return out;
    }

    private static List<String> sorted(List<String> lines) {
        List<String> copy = new ArrayList<>(lines);
        copy.sort(null);
        return copy;
    }
}

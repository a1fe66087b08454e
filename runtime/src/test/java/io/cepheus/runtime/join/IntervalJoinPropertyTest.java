package io.cepheus.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.ShardMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The interval join through the real engine against a nested-loop reference, over random out-of-order
 * streams of both inputs with watermarks per input: inner and outer joins, inclusive and exclusive bounds,
 * negative bounds, one or two shards. The reference knows nothing of buffers: an element is late iff its
 * timestamp is below min(left watermark, right watermark) on arrival; a pair is every two on-time elements of
 * a key in the interval, emitted when the second arrives; an element with no partner at all is unmatched when
 * the watermark first passes the end of its interval. Output is compared token by token; after the final
 * watermark the join holds nothing and the shards know no key.
 */
class IntervalJoinPropertyTest {

    private static final long SEED = PropertySeeds.seed(0x1A7E5A1L);

    /** One element: side, key, a unique number, event time. */
    private record Ev(char side, String key, int n, long ts) {
    }

    /** A token of the scenario: an element, or a watermark for 'L', 'R' or both (' '). */
    private record Token(Ev element, char wmSide, long wm) {
    }

    @Test
    void matchesTheNestedLoopReference() {
        PropertySeeds.reportingSeed(SEED, "runtime", "IntervalJoinPropertyTest", () ->
                qt().withFixedSeed(SEED).withExamples(400).forAll(longs().all())
                        .checkAssert(s -> check(new Random(s), s)));
    }

    private static void check(Random rnd, long scenarioSeed) {
        // a third of the scenarios stretch time, so that intervals are wide: the operator then rounds due times down
        // to calendar cells of up to 1 s. A small jitter on the stretched grid puts watermarks between a cell's
        // start and a key's due time (the key is visited before it is due and must wait again)
        int scale = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(20_000) : 1;
        int jitter = Math.min(scale, 4);
        long lower = (rnd.nextInt(21) - 10L) * scale;
        long upper = lower + (long) rnd.nextInt(16) * scale;
        boolean lowerExclusive = rnd.nextInt(4) == 0;
        boolean upperExclusive = rnd.nextInt(4) == 0;
        boolean leftOuter = rnd.nextBoolean();
        boolean rightOuter = rnd.nextBoolean();
        int shards = 1 + rnd.nextInt(2);
        List<Token> tokens = new ArrayList<>();
        int count = rnd.nextInt(60);
        long[] wm = {0, 0};
        for (int i = 0; i < count; i++) {
            int kind = rnd.nextInt(10);
            if (kind < 7) {
                char side = rnd.nextBoolean() ? 'L' : 'R';
                // out of order around the watermark, sometimes behind it (late)
                long base = Math.max(wm[0], wm[1]);
                long ts = Math.max(0, base + (rnd.nextInt(25) - 8L) * scale + rnd.nextInt(jitter));
                tokens.add(new Token(new Ev(side, "k" + rnd.nextInt(3), i, ts), ' ', 0));
            } else {
                char side = kind == 7 ? 'L' : kind == 8 ? 'R' : ' ';
                long w = Math.max(side == 'R' ? wm[1] : wm[0], 0) + (rnd.nextInt(8) - 1L) * scale + rnd.nextInt(jitter);
                if (side != 'R') {
                    wm[0] = Math.max(wm[0], w);
                }
                if (side != 'L') {
                    wm[1] = Math.max(wm[1], w);
                }
                tokens.add(new Token(null, side, w));
            }
        }
        long lo = lowerExclusive ? lower + 1 : lower;
        long hi = upperExclusive ? upper - 1 : upper;
        List<List<String>> expected = reference(tokens, lo, hi, leftOuter, rightOuter);
        String scenario = "scenario " + scenarioSeed + ": bounds [" + lower + (lowerExclusive ? " excl" : "") + ", "
                + upper + (upperExclusive ? " excl" : "") + "] scale=" + scale + " leftOuter=" + leftOuter
                + " rightOuter=" + rightOuter + " shards=" + shards + " tokens=" + tokens;

        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(shards).inboxCapacity(256).build();
        List<String> current = new ArrayList<>();
        IntervalJoin<Ev, Ev, Ev> join = engine.keyBy(Ev::key)
                .intervalJoin(e -> e.side() == 'L' ? e : null, e -> e.side() == 'R' ? e : null)
                .between(Duration.ofMillis(lower), Duration.ofMillis(upper));
        if (lowerExclusive) {
            join.lowerBoundExclusive();
        }
        if (upperExclusive) {
            join.upperBoundExclusive();
        }
        if (leftOuter) {
            join.leftOuter();
        }
        if (rightOuter) {
            join.rightOuter();
        }
        IntervalJoinStream<Ev, Ev, Ev, String> stream = join.<String>process((l, r, ctx, out) -> {
            if (l == null) {
                out.collect("UR " + ctx.key() + " #" + r.n() + " @" + ctx.timestamp());
            } else if (r == null) {
                out.collect("UL " + ctx.key() + " #" + l.n() + " @" + ctx.timestamp());
            } else {
                assertEquals(Math.max(l.ts(), r.ts()), ctx.timestamp());
                assertEquals(l.ts(), ctx.leftTimestamp());
                assertEquals(r.ts(), ctx.rightTimestamp());
                out.collect("P " + ctx.key() + " #" + l.n() + " #" + r.n());
            }
        }).results((key, line, ts) -> current.add(line))
                .lateLeft((key, e, ts) -> current.add("LL #" + e.n()))
                .lateRight((key, e, ts) -> current.add("LR #" + e.n()));
        Producer<Ev> left = engine.newProducer();
        Producer<Ev> right = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        List<List<String>> actual = new ArrayList<>();
        for (Token t : tokens) {
            if (t.element() != null) {
                (t.element().side() == 'L' ? left : right).send(t.element(), t.element().ts());
            } else {
                if (t.wmSide() != 'R') {
                    left.watermark(t.wm());
                }
                if (t.wmSide() != 'L') {
                    right.watermark(t.wm());
                }
            }
            harness.runUntilIdle();
            actual.add(sorted(current));
            current.clear();
        }
        left.watermark(Long.MAX_VALUE);
        right.watermark(Long.MAX_VALUE);
        harness.runUntilIdle();
        actual.add(sorted(current));
        assertEquals(expected, actual, scenario);

        IntervalJoinMetrics m = stream.metrics();
        assertEquals(0, m.buffered(), scenario);
        assertEquals(0, engine.metrics().total(ShardMetrics::keys), "keys left after the final watermark; " + scenario);
        long pairs = expected.stream().flatMap(List::stream).filter(s -> s.startsWith("P ")).count();
        assertEquals(pairs, m.pairs(), scenario);
        harness.close();
    }

    /** Groups of expected lines, one per token and one for the final watermark. */
    private static List<List<String>> reference(List<Token> tokens, long lo, long hi, boolean leftOuter,
            boolean rightOuter) {
        long wl = Long.MIN_VALUE;
        long wr = Long.MIN_VALUE;
        List<Ev> onTime = new ArrayList<>();
        List<Integer> arrivedAt = new ArrayList<>();
        List<List<String>> groups = new ArrayList<>();
        long[] watermarkAfter = new long[tokens.size() + 1];
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            List<String> group = new ArrayList<>();
            long w = Math.min(wl, wr);
            if (t.element() != null) {
                Ev e = t.element();
                if (e.ts() < w) {
                    group.add((e.side() == 'L' ? "LL #" : "LR #") + e.n());
                } else {
                    for (Ev o : onTime) {
                        if (o.side() != e.side() && o.key().equals(e.key())) {
                            Ev l = e.side() == 'L' ? e : o;
                            Ev r = e.side() == 'L' ? o : e;
                            if (r.ts() >= l.ts() + lo && r.ts() <= l.ts() + hi) {
                                group.add("P " + e.key() + " #" + l.n() + " #" + r.n());
                            }
                        }
                    }
                    onTime.add(e);
                    arrivedAt.add(i);
                }
            } else {
                if (t.wmSide() != 'R') {
                    wl = Math.max(wl, t.wm());
                }
                if (t.wmSide() != 'L') {
                    wr = Math.max(wr, t.wm());
                }
            }
            watermarkAfter[i] = Math.min(wl, wr);
            groups.add(group);
        }
        watermarkAfter[tokens.size()] = Long.MAX_VALUE;
        groups.add(new ArrayList<>());
        // unmatched: no partner at all; reported at the first token after its arrival (inclusive) whose watermark
        // passes the end of its interval
        for (int j = 0; j < onTime.size(); j++) {
            Ev e = onTime.get(j);
            boolean isLeft = e.side() == 'L';
            if (isLeft ? !leftOuter : !rightOuter) {
                continue;
            }
            boolean partner = false;
            for (Ev o : onTime) {
                if (o.side() != e.side() && o.key().equals(e.key())) {
                    Ev l = isLeft ? e : o;
                    Ev r = isLeft ? o : e;
                    partner |= r.ts() >= l.ts() + lo && r.ts() <= l.ts() + hi;
                }
            }
            if (partner) {
                continue;
            }
            long last = isLeft ? e.ts() + hi : e.ts() - lo;
            for (int i = arrivedAt.get(j); i <= tokens.size(); i++) {
                if (watermarkAfter[i] > last || i == tokens.size()) {
                    groups.get(i).add((isLeft ? "UL " : "UR ") + e.key() + " #" + e.n() + " @"
                            + Math.max(e.ts(), last));
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

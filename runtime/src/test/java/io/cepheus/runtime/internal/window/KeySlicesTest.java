package io.cepheus.runtime.internal.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.testing.PropertySeeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The two-stacks slice aggregation of {@link KeySlices} against a naive fold of the slices of each window, on
 * random runs shaped like the operator's: values put into slices of open windows in any order (in place for
 * mutable accumulators, so stale suffixes and back aggregates show), windows fired in order (some skipped, as
 * windows without contents are), slices dropped once no later window needs them, the state reset when it empties.
 * Window shapes include one slice per window, gaps between windows (slide &gt; size) and negative slice numbers.
 * Values are order-sensitive (concatenations), so a combination out of time order shows too, and every result
 * handed out must stay unchanged afterwards (the structure must not keep and change what it returned).
 */
class KeySlicesTest {

    private static final long SEED = PropertySeeds.seed(0x511CE5L);

    /** Mutable accumulators: lists of ints, merged by appending. */
    private static final SliceCombiner LISTS = new SliceCombiner() {
        @Override
        @SuppressWarnings("unchecked")
        public Object copy(Object value) {
            return new ArrayList<>((List<Integer>) value);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Object combine(Object owned, Object next) {
            ((List<Integer>) owned).addAll((List<Integer>) next);
            return owned;
        }
    };

    /** Immutable values, as reduce results: strings, combined by concatenation. */
    private static final SliceCombiner STRINGS = new SliceCombiner() {
        @Override
        public Object copy(Object value) {
            return value;
        }

        @Override
        public Object combine(Object owned, Object next) {
            return (String) owned + next;
        }
    };

    @Test
    void everyWindowIsTheFoldOfItsSlices() {
        PropertySeeds.reportingSeed(SEED, "runtime", "KeySlicesTest", () ->
                qt().withFixedSeed(SEED).withExamples(3000).forAll(longs().all())
                        .checkAssert(KeySlicesTest::check));
    }

    @Test
    void aLateValueBelowTheHeldRangeJoinsTheFrontWithTheSuffixAboveIt() {
        // window [0, 4) slides by 1: the first firing holds only slice 3 (base 3); slice 1 then fills below base
        KeySlices s = new KeySlices();
        s.put(3, List.of(3).toString());
        assertEquals("[3]", s.window(0, 4, STRINGS));
        s.put(1, "[1]");
        assertEquals("[1][3]", s.window(1, 5, STRINGS));
        assertEquals("[3]", s.window(2, 6, STRINGS));
        s.put(5, "[5]");
        assertEquals("[3][5]", s.window(3, 7, STRINGS));
        assertEquals("[5]", s.window(4, 8, STRINGS));
    }

    private static void check(long caseSeed) {
        Random r = new Random(caseSeed);
        int n = 1 + r.nextInt(7); // slices per window
        int m = 1 + r.nextInt(r.nextBoolean() ? n : 10); // slices per slide; above n: gaps between windows
        long origin = r.nextInt(100) - 50;
        boolean lists = r.nextBoolean();
        SliceCombiner c = lists ? LISTS : STRINGS;
        int ring = r.nextBoolean() ? 0 : 1 + r.nextInt(40); // the operator sizes the ring for a window's slices
        KeySlices s = ring == 0 ? new KeySlices() : new KeySlices(ring);
        TreeMap<Long, List<Integer>> model = new TreeMap<>();
        List<Object> handedOut = new ArrayList<>();
        List<String> handedOutText = new ArrayList<>();
        long next = 0; // the next window to fire: [origin + next * m, origin + next * m + n)
        int ops = 20 + r.nextInt(200);
        StringBuilder trace = new StringBuilder("n=" + n + " m=" + m + " origin=" + origin + " lists=" + lists
                + " ring=" + ring);
        for (int op = 0; op < ops; op++) {
            long from = origin + next * m;
            if (r.nextInt(3) > 0) {
                long k = from + r.nextInt(n + 3 * m);
                if (Math.floorMod(k - origin, m) >= n && m > n) {
                    continue; // in a gap between windows: the operator never keeps such an element
                }
                int v = r.nextInt(100);
                trace.append("\nput ").append(k).append(' ').append(v);
                model.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
                Object old = s.value(k);
                Object updated;
                if (lists) {
                    @SuppressWarnings("unchecked")
                    List<Integer> acc = old == null ? new ArrayList<>() : (List<Integer>) old;
                    acc.add(v); // in place, as a mutable accumulator
                    updated = acc;
                } else {
                    updated = (old == null ? "" : (String) old) + List.of(v);
                }
                assertEquals(old == null, s.put(k, updated), trace.toString());
            } else {
                long to = from + n;
                trace.append("\nwindow ").append(from).append(' ').append(to);
                Object got = s.window(from, to, c);
                List<Integer> want = new ArrayList<>();
                model.subMap(from, to).values().forEach(want::addAll);
                if (want.isEmpty()) {
                    assertNull(got, trace.toString());
                } else {
                    String text = got.toString();
                    assertEquals(lists ? want.toString() : concat(model, from, to), text, trace.toString());
                    handedOut.add(got);
                    handedOutText.add(text);
                }
                next += r.nextInt(5) == 0 ? 1 + r.nextInt(3) : 1;
                long needed = origin + next * m; // no later window holds a slice below this
                while (s.length() > 0 && s.base() < needed) {
                    s.dropFirst();
                }
                model.headMap(needed).clear();
                if (s.isEmpty()) {
                    assertTrue(model.isEmpty(), trace.toString());
                    s.reset();
                }
            }
            for (long k = from; k < from + n + 3 * m; k++) {
                Object v = s.value(k);
                List<Integer> want = model.get(k);
                assertEquals(want == null ? null : lists ? want.toString() : concat(model, k, k + 1),
                        v == null ? null : v.toString(), trace.toString());
            }
        }
        for (int i = 0; i < handedOut.size(); i++) {
            assertEquals(handedOutText.get(i), handedOut.get(i).toString(), "a result changed after it was handed"
                    + " out; " + trace);
        }
    }

    private static String concat(TreeMap<Long, List<Integer>> model, long from, long to) {
        StringBuilder b = new StringBuilder();
        model.subMap(from, to).values().forEach(values -> values.forEach(v -> b.append(List.of(v))));
        return b.toString();
    }
}

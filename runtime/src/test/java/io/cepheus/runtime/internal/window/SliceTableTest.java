package io.cepheus.runtime.internal.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.carrotsearch.hppc.IntArrayList;
import io.cepheus.nfa.testing.PropertySeeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The time-major two-stacks aggregation of {@link SliceTable} against a naive fold of each key's slices of each
 * window, on random runs shaped like the operator's: values put for several keys into slices of open windows in
 * any order (in place for mutable accumulators, so stale suffixes and back aggregates show), windows fired in order
 * for exactly the keys that have contents in them (others skip it, as windows without contents do not fire),
 * slices dropped once no later window needs them, keys released when they empty (their ids then reused). Window
 * shapes include one slice per window, gaps between windows (slide &gt; size) and negative slice numbers. Values
 * are order-sensitive (concatenations), so a combination out of time order shows too, and every result handed out
 * must stay unchanged afterwards (the structure must not keep and change what it returned).
 */
class SliceTableTest {

    private static final long SEED = PropertySeeds.seed(0x511CE7L);

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
    void everyKeysWindowIsTheFoldOfItsSlices() {
        PropertySeeds.reportingSeed(SEED, "runtime", "SliceTableTest", () ->
                qt().withFixedSeed(SEED).withExamples(1500).forAll(longs().all())
                        .checkAssert(SliceTableTest::check));
    }

    @Test
    void aLateValueBelowTheHeldSlicesJoinsTheFrontWithTheSuffixAboveIt() {
        // window [0, 4) slides by 1: the first firing holds only slice 3; slice 1 then fills below it
        SliceTable t = new SliceTable();
        assertEquals(0, t.hold(0));
        t.put(0, 3, "[3]");
        assertEquals("[3]", fire(t, 0, 4, 0));
        t.put(0, 1, "[1]");
        assertEquals("[1][3]", fire(t, 1, 5, 0));
        assertEquals("[3]", fire(t, 2, 6, 0));
        t.put(0, 5, "[5]");
        assertEquals("[3][5]", fire(t, 3, 7, 0));
        assertEquals("[5]", fire(t, 4, 8, 0));
    }

    @Test
    void aNewFrontSliceOfOneKeyLeavesTheOthersSuffixesAsTheyWere() {
        // keys 0 and 1 flip over [0, 4); key 1 then fills slice 1, which no key held: key 0's suffix there is its
        // suffix of slice 2 (the front slice above), and its next window still reads it
        SliceTable t = new SliceTable();
        assertEquals(0, t.hold(0)); // slots in the order keys come: here the same numbers as the ids
        assertEquals(1, t.hold(1));
        t.put(0, 0, "a0");
        t.put(0, 2, "a2");
        t.put(1, 3, "b3");
        t.advance(0, 4, new int[] {0, 1}, 2, STRINGS);
        assertEquals("a0a2", t.window(0, STRINGS));
        assertEquals("b3", t.window(1, STRINGS));
        t.put(1, 1, "b1");
        t.advance(1, 5, new int[] {0, 1}, 2, STRINGS);
        assertEquals("a2", t.window(0, STRINGS));
        assertEquals("b1b3", t.window(1, STRINGS));
    }

    @Test
    void aCombinationThatThrowsFailsOnlyItsKeysWindowAndTheNextOneIsWhole() {
        SliceCombiner failing = new SliceCombiner() {
            @Override
            public Object copy(Object value) {
                if ("bad".equals(value)) {
                    throw new IllegalStateException("cannot copy " + value);
                }
                return value;
            }

            @Override
            public Object combine(Object owned, Object next) {
                return STRINGS.combine(owned, next);
            }
        };
        SliceTable t = new SliceTable();
        assertEquals(0, t.hold(0));
        assertEquals(1, t.hold(1));
        t.put(0, 0, "bad");
        t.put(0, 1, "a1");
        t.put(1, 1, "b1");
        t.advance(0, 2, new int[] {0, 1}, 2, failing);
        assertThrows(IllegalStateException.class, () -> t.window(0, failing));
        assertEquals("b1", t.window(1, failing));
        t.advance(1, 3, new int[] {0, 1}, 2, failing);
        assertEquals("a1", t.window(0, failing));
        assertEquals("b1", t.window(1, failing));
    }

    /**
     * Columns are indexed by slots the table hands out to the keys it holds, not by the shard's key ids (shared with
     * the shard's other operators, a CEP pattern over a million users for one): a key numbered in the millions
     * costs a column entry, not millions of them, and a released key's slot goes to the next key.
     */
    @Test
    void columnsAreSizedByTheKeysHeldNotByTheirIds() {
        SliceTable t = new SliceTable();
        int x = t.hold(5_000_000);
        t.put(x, 7, "x");
        int y = t.hold(3);
        t.put(y, 7, "y");
        assertEquals(List.of(0, 1), List.of(x, y));
        assertEquals("x", t.value(x, 7));
        assertEquals("y", t.value(y, 7));
        assertTrue(t.column(7).values.length <= 64, "a column of " + t.column(7).values.length + " entries");
        IntArrayList emptied = new IntArrayList();
        t.dropFirst(emptied);
        assertEquals(List.of(x, y), List.of(emptied.get(0), emptied.get(1)));
        t.release(x);
        assertTrue(t.holds(3) && !t.holds(5_000_000));
        int z = t.hold(9_000_000);
        assertEquals(x, z, "the released key's slot is taken again");
        assertEquals(9_000_000, t.keyAtSlot(z));
        t.put(z, 8, "z");
        assertEquals("z", t.value(z, 8));
        assertEquals(2, t.slotBound());
    }

    private static Object fire(SliceTable t, long from, long to, int id) {
        t.advance(from, to, new int[] {id}, 1, STRINGS);
        return t.window(id, STRINGS);
    }

    private static void check(long caseSeed) {
        Random r = new Random(caseSeed);
        int n = 1 + r.nextInt(7); // slices per window
        int m = 1 + r.nextInt(r.nextBoolean() ? n : 10); // slices per slide; above n: gaps between windows
        long origin = r.nextInt(100) - 50;
        boolean lists = r.nextBoolean();
        SliceCombiner c = lists ? LISTS : STRINGS;
        int keys = 1 + r.nextInt(4);
        SliceTable t = new SliceTable();
        int[] slot = new int[keys]; // the table's slot of each key while it is held
        List<TreeMap<Long, List<Integer>>> model = new ArrayList<>();
        for (int id = 0; id < keys; id++) {
            model.add(new TreeMap<>());
        }
        List<Object> handedOut = new ArrayList<>();
        List<String> handedOutText = new ArrayList<>();
        IntArrayList emptied = new IntArrayList();
        long next = 0; // the next window to fire: [origin + next * m, origin + next * m + n)
        int ops = 20 + r.nextInt(300);
        StringBuilder trace = new StringBuilder("n=" + n + " m=" + m + " origin=" + origin + " lists=" + lists
                + " keys=" + keys);
        for (int op = 0; op < ops; op++) {
            long from = origin + next * m;
            if (r.nextInt(3) > 0) {
                long k = from + r.nextInt(n + 3 * m);
                if (Math.floorMod(k - origin, m) >= n && m > n) {
                    continue; // in a gap between windows: the operator never keeps such an element
                }
                int id = r.nextInt(keys);
                int v = r.nextInt(100);
                trace.append("\nput ").append(id).append(' ').append(k).append(' ').append(v);
                model.get(id).computeIfAbsent(k, x -> new ArrayList<>()).add(v);
                slot[id] = t.hold(id + 1_000 * id); // key ids spread out, as a shard's are
                Object old = t.value(slot[id], k);
                Object updated;
                if (lists) {
                    @SuppressWarnings("unchecked")
                    List<Integer> acc = old == null ? new ArrayList<>() : (List<Integer>) old;
                    acc.add(v); // in place, as a mutable accumulator
                    updated = acc;
                } else {
                    updated = (old == null ? "" : (String) old) + List.of(v);
                }
                assertEquals(old == null, t.put(slot[id], k, updated), trace.toString());
                assertEquals(updated, t.value(slot[id], k), trace.toString());
                continue;
            } else {
                long to = from + n;
                int[] due = new int[keys];
                int count = 0;
                for (int id = 0; id < keys; id++) {
                    if (!model.get(id).subMap(from, to).isEmpty()) {
                        due[count++] = slot[id]; // the keys with contents fire; the others skip this window
                    }
                }
                java.util.Arrays.sort(due, 0, count); // in slot order, as the operator's calendar gives them
                trace.append("\nwindow ").append(from).append(' ').append(to).append(" for ").append(count)
                        .append(" keys");
                if (count > 0) {
                    t.advance(from, to, due, count, c);
                    for (int i = 0; i < count; i++) {
                        int id = keyOfSlot(t, due[i]);
                        Object got = t.window(due[i], c);
                        List<Integer> want = new ArrayList<>();
                        model.get(id).subMap(from, to).values().forEach(want::addAll);
                        String text = got.toString();
                        assertEquals(lists ? want.toString() : concat(model.get(id), from, to), text,
                                "key " + id + "; " + trace);
                        handedOut.add(got);
                        handedOutText.add(text);
                    }
                }
                next += r.nextInt(5) == 0 ? 1 + r.nextInt(3) : 1;
                long needed = origin + next * m; // no later window holds a slice below this
                while (!t.noSlices() && t.firstSlice() < needed) {
                    t.dropFirst(emptied);
                }
                for (TreeMap<Long, List<Integer>> keyModel : model) {
                    keyModel.headMap(needed).clear();
                }
                for (int i = 0; i < emptied.size(); i++) {
                    int id = keyOfSlot(t, emptied.get(i));
                    assertTrue(t.isEmpty(emptied.get(i)) && model.get(id).isEmpty(), "key " + id + "; " + trace);
                    t.release(emptied.get(i));
                }
                emptied.clear();
            }
            for (int id = 0; id < keys; id++) {
                if (!t.holds(id + 1_000 * id)) {
                    assertTrue(model.get(id).isEmpty(), "key " + id + " let go with values; " + trace);
                    continue;
                }
                for (long k = from; k < from + n + 3 * m; k++) {
                    Object v = t.value(slot[id], k);
                    List<Integer> want = model.get(id).get(k);
                    assertEquals(want == null ? null : lists ? want.toString() : concat(model.get(id), k, k + 1),
                            v == null ? null : v.toString(), "key " + id + " slice " + k + "; " + trace);
                }
            }
        }
        for (int i = 0; i < handedOut.size(); i++) {
            assertEquals(handedOutText.get(i), handedOut.get(i).toString(), "a result changed after it was handed"
                    + " out; " + trace);
        }
    }

    /** @return the test's key number (0..3) of the key in slot {@code s} */
    private static int keyOfSlot(SliceTable t, int s) {
        return t.keyAtSlot(s) / 1_001;
    }

    private static String concat(TreeMap<Long, List<Integer>> model, long from, long to) {
        StringBuilder b = new StringBuilder();
        model.subMap(from, to).values().forEach(values -> values.forEach(v -> b.append(List.of(v))));
        return b.toString();
    }
}

package io.cepheus.runtime.internal.cep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import io.cepheus.nfa.testing.PropertySeeds;
import org.junit.jupiter.api.Test;

class EventTimeBufferTest {

    private static final long SEED = PropertySeeds.seed(0xB0FFE2L);

    private record Ev(int key, long ts, int n) {
    }

    @Test
    void releasesInTimestampOrderKeepingArrivalOrderForTies() {
        EventTimeBuffer<String> b = new EventTimeBuffer<>(null);
        b.add(1, "c", 5);
        b.add(2, "a", 3);
        b.add(1, "d", 5);
        b.add(2, "b", 3);
        b.add(3, "late", 9);
        List<String> out = new ArrayList<>();
        assertEquals(4, b.releaseUpTo(5, (k, e, ts) -> out.add(e + "@" + ts + "/" + k)));
        assertEquals(List.of("a@3/2", "b@3/2", "c@5/1", "d@5/1"), out);
        assertEquals(1, b.size());
        assertEquals(9, b.earliest());
        assertEquals(0, b.bufferedFor(1));
        assertEquals(1, b.bufferedFor(3));
    }

    @Test
    void aComparatorBreaksTiesBeforeArrivalOrder() {
        EventTimeBuffer<String> b = new EventTimeBuffer<>(Comparator.reverseOrder());
        b.add(0, "x", 1);
        b.add(0, "z", 1);
        b.add(0, "y", 1);
        List<String> out = new ArrayList<>();
        b.releaseUpTo(1, (k, e, ts) -> out.add(e));
        assertEquals(List.of("z", "y", "x"), out);
    }

    /** Against a stable sort of everything added, with random watermarks in between. */
    @Test
    void releasesExactlyWhatAStableSortWould() {
        forScripts(SEED, 2000, 80, EventTimeBufferTest::checkAgainstStableSort);
    }

    /** As above, with a tie-breaking comparator (odd arrival numbers first among equal timestamps). */
    @Test
    void releasesWhatAStableSortWithTheComparatorWould() {
        forScripts(SEED + 1, 2000, 80, script -> check(script, ODD_FIRST, false));
    }

    /** Mostly in-order arrivals (the run's fast path) with a few stragglers, with and without comparator. */
    @Test
    void mostlyInOrderStreamsAreReleasedCorrectly() {
        forScripts(SEED + 2, 2000, 120, script -> {
            check(script, null, true);
            check(script, ODD_FIRST, true);
        });
    }

    /**
     * Releasing with a lookahead hands out exactly what releasing without one does, in the same order; the
     * lookahead is told only of events that the same release hands out afterwards, at most
     * {@link EventTimeBuffer#LOOKAHEAD} at once. On an in-order stream its windows are exactly the events
     * released next, one after another, none skipped nor told twice.
     */
    @Test
    void aLookaheadIsToldOfTheNextEventsAndChangesNothingReleased() {
        forScripts(SEED + 3, 1000, 300, script -> {
            checkLookahead(script, null, true);
            checkLookahead(script, ODD_FIRST, true);
            checkLookahead(script, null, false);
            checkInOrderLookahead(script);
        });
    }

    /** Runs {@code check} on random scripts (see {@link ScriptReader}) of up to {@code maxSize} steps. */
    private static void forScripts(long seed, int examples, int maxSize, Consumer<List<Integer>> check) {
        PropertySeeds.reportingSeed(SEED, "runtime", "EventTimeBufferTest", () ->
                qt().withFixedSeed(seed).withExamples(examples)
                        .forAll(lists().of(integers().between(-3, 40)).ofSizeBetween(0, maxSize))
                        .checkAssert(check));
    }

    /** Releases a script (as {@link #check}) through two buffers, one with a recording lookahead. */
    private static void checkLookahead(List<Integer> script, Comparator<Ev> tieBreaker, boolean mostlyInOrder) {
        EventTimeBuffer<Ev> plain = new EventTimeBuffer<>(tieBreaker);
        EventTimeBuffer<Ev> ahead = new EventTimeBuffer<>(tieBreaker);
        List<Ev> expected = new ArrayList<>();
        List<Ev> actual = new ArrayList<>();
        new ScriptReader(mostlyInOrder).play(script, e -> {
            plain.add(e.key(), e, e.ts());
            ahead.add(e.key(), e, e.ts());
        }, watermark -> {
            plain.releaseUpTo(watermark, (k, e, ts) -> expected.add(e));
            List<Ev> told = new ArrayList<>();
            List<Ev> released = new ArrayList<>();
            ahead.releaseUpTo(watermark, (k, e, ts) -> {
                assertEquals(k, e.key(), "key id of " + e);
                released.add(e);
            }, (buffer, count) -> {
                assertTrue(count >= 2 && count <= EventTimeBuffer.LOOKAHEAD, "window of " + count);
                for (int i = 0; i < count; i++) {
                    assertEquals(buffer.upcomingEvent(i).key(), buffer.upcomingKey(i));
                    told.add(buffer.upcomingEvent(i));
                }
            });
            assertTrue(released.containsAll(told), "told of events not released: " + script);
            actual.addAll(released);
        });
        assertEquals(expected, actual, "script " + script);
        assertEquals(plain.size(), ahead.size());
    }

    /** Strictly rising timestamps: the windows told are the released events, in order, each exactly once. */
    private static void checkInOrderLookahead(List<Integer> script) {
        EventTimeBuffer<Ev> buffer = new EventTimeBuffer<>(null);
        ArrayDeque<Ev> told = new ArrayDeque<>();
        long clock = 0;
        int n = 0;
        for (int step : script) {
            if (step >= 0) {
                Ev e = new Ev(step % 3, ++clock, n++);
                buffer.add(e.key(), e, e.ts());
            } else {
                long wm = clock - (-step - 1) * 7L; // sometimes cuts the run in the middle
                int before = buffer.size();
                int released = buffer.releaseUpTo(wm, (k, e, ts) -> {
                    if (told.isEmpty()) {
                        // a window of one is not told: only the last event of a release can be released so
                        assertTrue(buffer.earliest() > wm, "event " + e + " released without being told of");
                    } else {
                        assertEquals(told.poll(), e, "the next event told of");
                    }
                }, (b, count) -> {
                    assertTrue(told.isEmpty(), "told again before the last window was released: " + told);
                    for (int i = 0; i < count; i++) {
                        told.add(b.upcomingEvent(i));
                    }
                });
                assertTrue(told.isEmpty(), "told of events that were not released: " + told);
                assertEquals(before - released, buffer.size());
            }
        }
    }

    private static final Comparator<Ev> ODD_FIRST = Comparator.comparingInt(e -> e.n() % 2 == 1 ? 0 : 1);

    private static void checkAgainstStableSort(List<Integer> script) {
        check(script, null, false);
    }

    /**
     * Reads a script's steps: values >= 0 are events (key = value % 3) at that timestamp, or, when {@code
     * mostlyInOrder}, at a rising clock plus small jitter from the value; negative values advance the watermark.
     */
    private static final class ScriptReader {
        private final boolean mostlyInOrder;
        private long watermark = Long.MIN_VALUE;
        private long clock;
        private int n;

        ScriptReader(boolean mostlyInOrder) {
            this.mostlyInOrder = mostlyInOrder;
        }

        Ev event(int step) {
            long ts = mostlyInOrder ? (clock += step % 4) - (step % 11 == 0 ? 3 : 0) : step;
            return new Ev(step % 3, ts, n++);
        }

        long watermark(int step) {
            watermark = watermark == Long.MIN_VALUE ? (mostlyInOrder ? clock - 2 : 5) : watermark + 5 * -step;
            return watermark;
        }

        /** Hands each step of {@code script} to {@code onEvent} or {@code onWatermark}, in order. */
        void play(List<Integer> script, Consumer<Ev> onEvent, LongConsumer onWatermark) {
            for (int step : script) {
                if (step >= 0) {
                    onEvent.accept(event(step));
                } else {
                    onWatermark.accept(watermark(step));
                }
            }
        }
    }

    /**
     * Values >= 0 add an event (key = value % 3) at that timestamp, or, when {@code mostlyInOrder}, at a
     * rising clock plus small jitter from the value; negative values advance a watermark.
     */
    private static void check(List<Integer> script, Comparator<Ev> tieBreaker, boolean mostlyInOrder) {
        EventTimeBuffer<Ev> buffer = new EventTimeBuffer<>(tieBreaker);
        List<Ev> pending = new ArrayList<>();
        List<Ev> expected = new ArrayList<>();
        List<Ev> actual = new ArrayList<>();
        new ScriptReader(mostlyInOrder).play(script, e -> {
            buffer.add(e.key(), e, e.ts());
            pending.add(e);
        }, wm -> {
            List<Ev> due = new ArrayList<>();
            for (Ev e : pending) {
                if (e.ts() <= wm) {
                    due.add(e);
                }
            }
            Comparator<Ev> order = Comparator.comparingLong(Ev::ts);
            if (tieBreaker != null) {
                order = order.thenComparing(tieBreaker);
            }
            due.sort(order); // List.sort is stable: arrival order for what is still tied
            pending.removeAll(due);
            expected.addAll(due);
            buffer.releaseUpTo(wm, (k, e, ts) -> actual.add(e));
        });
        assertEquals(expected, actual, "script " + script);
        assertEquals(pending.size(), buffer.size());
    }
}

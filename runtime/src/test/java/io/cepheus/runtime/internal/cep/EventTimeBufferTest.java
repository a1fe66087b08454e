package io.cepheus.runtime.internal.cep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
        PropertySeeds.reportingSeed(SEED, "runtime", "EventTimeBufferTest", () -> {
            qt().withFixedSeed(SEED).withExamples(2000)
                    .forAll(lists().of(integers().between(-3, 40)).ofSizeBetween(0, 80))
                    .checkAssert(EventTimeBufferTest::checkAgainstStableSort);
        });
    }

    /** As above, with a tie-breaking comparator (odd arrival numbers first among equal timestamps). */
    @Test
    void releasesWhatAStableSortWithTheComparatorWould() {
        PropertySeeds.reportingSeed(SEED, "runtime", "EventTimeBufferTest", () -> {
            qt().withFixedSeed(SEED + 1).withExamples(2000)
                    .forAll(lists().of(integers().between(-3, 40)).ofSizeBetween(0, 80))
                    .checkAssert(script -> check(script, ODD_FIRST, false));
        });
    }

    /** Mostly in-order arrivals (the run's fast path) with a few stragglers, with and without comparator. */
    @Test
    void mostlyInOrderStreamsAreReleasedCorrectly() {
        PropertySeeds.reportingSeed(SEED, "runtime", "EventTimeBufferTest", () -> {
            qt().withFixedSeed(SEED + 2).withExamples(2000)
                    .forAll(lists().of(integers().between(-3, 40)).ofSizeBetween(0, 120))
                    .checkAssert(script -> {
                        check(script, null, true);
                        check(script, ODD_FIRST, true);
                    });
        });
    }

    private static final Comparator<Ev> ODD_FIRST = Comparator.comparingInt(e -> e.n() % 2 == 1 ? 0 : 1);

    private static void checkAgainstStableSort(List<Integer> script) {
        check(script, null, false);
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
        long watermark = Long.MIN_VALUE;
        int n = 0;
        long clock = 0;
        for (int step : script) {
            if (step >= 0) {
                long ts = mostlyInOrder ? (clock += step % 4) - (step % 11 == 0 ? 3 : 0) : step;
                Ev e = new Ev(step % 3, ts, n++);
                buffer.add(e.key(), e, e.ts());
                pending.add(e);
            } else {
                watermark = watermark == Long.MIN_VALUE ? (mostlyInOrder ? clock - 2 : 5) : watermark + 5 * -step;
                long wm = watermark;
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
            }
        }
        assertEquals(expected, actual, "script " + script);
        assertEquals(pending.size(), buffer.size());
    }
}

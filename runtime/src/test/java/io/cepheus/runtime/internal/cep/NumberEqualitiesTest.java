package io.cepheus.runtime.internal.cep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.cepheus.nfa.testing.PropertySeeds;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link NumberEqualities}: the ways under a numeric field's equalities, found by an event's value, whether they sit
 * in an array by value or in a hash map. A lookup must find every way whose value equals the event's; it may find
 * more only where two values share a key (then the way's checks turn the event down).
 */
class NumberEqualitiesTest {

    private static final long SEED = PropertySeeds.seed(0x5EA1E5L);

    /** Builds the table as the condition index does: way i under values[i]. */
    private static NumberEqualities table(double... values) {
        NumberEqualities.Builder builder = new NumberEqualities.Builder();
        for (int i = 0; i < values.length; i++) {
            builder.add(values[i], i);
        }
        return builder.build();
    }

    @Test
    void wholeValuesCloseTogetherAreFoundByValueAndNothingBesideThem() {
        NumberEqualities t = table(0, 100, 900, 100, -3);
        assertTrue(t.byValue());
        assertArrayEquals(new int[] {0}, t.get(0));
        assertArrayEquals(new int[] {0}, t.get(-0.0));
        assertArrayEquals(new int[] {1, 3}, t.get(100));
        assertArrayEquals(new int[] {2}, t.get(900));
        assertArrayEquals(new int[] {4}, t.get(-3)); // the smallest value: the array's first slot
        for (double x : new double[] {-4, -2, 1, 99.5, 100.5, 101, 899, 901, 1e300, -1e300,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE}) {
            assertNull(t.get(x), "value " + x);
        }
    }

    @Test
    void valuesFarApartOrNotWholeGoToTheHashMap() {
        NumberEqualities wide = table(0, 1_000_000);
        assertFalse(wide.byValue());
        assertArrayEquals(new int[] {1}, wide.get(1_000_000));
        assertNull(wide.get(1));
        NumberEqualities extremes = table(-9e18, 9e18); // their difference overflows a long
        assertFalse(extremes.byValue());
        assertArrayEquals(new int[] {0}, extremes.get(-9e18));
        assertArrayEquals(new int[] {1}, extremes.get(9e18));
        NumberEqualities halves = table(2.5, 7);
        assertFalse(halves.byValue());
        assertArrayEquals(new int[] {0}, halves.get(2.5));
        assertArrayEquals(new int[] {1}, halves.get(7));
        assertNull(halves.get(2));
        // many values may spread further: 100 values 16 apart fit an array of 1,585 slots
        double[] spread = new double[100];
        for (int i = 0; i < spread.length; i++) {
            spread[i] = i * 16;
        }
        assertTrue(table(spread).byValue());
    }

    @Test
    void aTinyValueWhoseBitsLookWholeIsStillFound() {
        double tiny = Double.longBitsToDouble(7); // 3.5e-323: its key, its bits, is 7
        NumberEqualities t = table(tiny);
        assertFalse(t.byValue()); // in an array it would sit at 7, where a lookup of itself never looks
        assertArrayEquals(new int[] {0}, t.get(tiny));
    }

    @Test
    void findsEveryWayWhoseValueEqualsTheEventsOnRandomTables() {
        PropertySeeds.reportingSeed(SEED, "runtime", "NumberEqualitiesTest", () ->
                qt().withFixedSeed(SEED).withExamples(400)
                        .forAll(lists().of(integers().between(0, 99)).ofSizeBetween(1, 40),
                                integers().between(0, 3))
                        .checkAssert((codes, shape) -> {
                            double[] values = new double[codes.size()];
                            for (int i = 0; i < values.length; i++) {
                                values[i] = valueOf(codes.get(i), shape);
                            }
                            NumberEqualities t = table(values);
                            for (double x : probes(values)) {
                                Set<Integer> found = new LinkedHashSet<>();
                                int[] got = t.get(x);
                                if (got != null) {
                                    for (int h : got) {
                                        found.add(h);
                                    }
                                }
                                for (int i = 0; i < values.length; i++) {
                                    boolean equal = values[i] == x;
                                    boolean sharesKey = NumberEqualities.key(values[i]) == NumberEqualities.key(x);
                                    assertTrue(!equal || found.contains(i), "way " + i + " (" + values[i]
                                            + ") not found for " + x + " among " + codes + " shape " + shape);
                                    assertTrue(sharesKey || !found.contains(i), "way " + i + " (" + values[i]
                                            + ") found for " + x);
                                }
                            }
                        }));
    }

    /**
     * @return a value for a code in one of four shapes: small whole numbers (an array), whole numbers far apart (a
     *         map), halves mixed with whole numbers (a map), and whole numbers with odd ones (-0.0, a tiny value
     *         whose bits look whole, 2^53, -2^63)
     */
    private static double valueOf(int code, int shape) {
        return switch (shape) {
            case 0 -> code - 50;
            case 1 -> code * 100_003.0;
            case 2 -> code % 3 == 0 ? code / 2.0 : code;
            default -> switch (code % 10) {
                case 0 -> -0.0;
                case 1 -> Double.longBitsToDouble(code);
                case 2 -> 0x1p53;
                case 3 -> -0x1p63;
                default -> code;
            };
        };
    }

    /** @return each value, its neighbours by one and by a half, and a few values no table holds */
    private static List<Double> probes(double[] values) {
        List<Double> probes = new ArrayList<>(List.of(0.0, -0.0, 1e300, -1e300, Double.POSITIVE_INFINITY));
        for (double v : values) {
            probes.add(v);
            probes.add(v - 1);
            probes.add(v + 1);
            probes.add(v + 0.5);
        }
        return probes;
    }
}

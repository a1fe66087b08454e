package io.cepheus.runtime.internal.cep;

import static io.cepheus.runtime.internal.cep.IndexedEvents.country;
import static io.cepheus.runtime.internal.cep.IndexedEvents.type;
import static io.cepheus.runtime.internal.cep.IndexedEvents.value;
import static io.cepheus.runtime.internal.cep.IndexedEvents.valueAtLeast;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.FieldRequirement;
import io.cepheus.runtime.internal.cep.IndexedEvents.Ev;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrivalGate}: which arriving events a rule set keeps. It may keep too many, never one that some way of some
 * version may take; that a rule set with it emits what each rule alone emits is {@code ManyRulesAgreementTest}.
 */
class ArrivalGateTest {

    private static final long SEED = PropertySeeds.seed(0xA221_7A1EL);

    @SafeVarargs
    private static List<Condition<Ev>> way(FieldRequirement<Ev>... rs) {
        return List.of(new Requiring<>(List.of(rs)));
    }

    @SafeVarargs
    private static ArrivalGate<Ev> gate(List<Condition<Ev>>... ways) {
        return ArrivalGate.over(List.of(ways));
    }

    @Test
    void rulesOnAThenBKeepTheirAsValuesAndEveryB() {
        // W5's rules: begin type A and value V, go on with type B and value at least V
        List<List<Condition<Ev>>> ways = new ArrayList<>();
        for (int v : new int[] {0, 100, 200}) {
            ways.add(way(type('A'), value(v)));
            ways.add(way(type('B'), valueAtLeast(v)));
        }
        ArrivalGate<Ev> gate = ArrivalGate.over(ways);
        assertTrue(gate.mayConcern(new Ev('A', 100, "DE")));
        assertFalse(gate.mayConcern(new Ev('A', 101, "DE")), "no rule begins with 101, none goes on with an A");
        assertTrue(gate.mayConcern(new Ev('B', 0, "DE")), "a B: the second field is a threshold, so every B is kept");
        assertFalse(gate.mayConcern(new Ev('C', 100, "DE")));
        assertFalse(gate.mayConcern(new Ev('X', 0, "DE")));
    }

    @Test
    void theFieldIsOneEveryWayNamesAndOthersAreNotAskedAbout() {
        // value is named by two ways of three, country by every way: the gate asks about country only
        ArrivalGate<Ev> gate = gate(way(value(1), country("DE")), way(value(2), country("FR")),
                way(type('A'), country("DE")));
        assertTrue(gate.mayConcern(new Ev('B', 9, "DE")), "the third way has no value; DE's ways may take it");
        assertTrue(gate.mayConcern(new Ev('B', 2, "FR")));
        assertFalse(gate.mayConcern(new Ev('B', 1, "FR")), "FR's only way needs value 2");
        assertFalse(gate.mayConcern(new Ev('A', 1, "IT")));
    }

    @Test
    void aWayWithoutAListOnEveryFieldOrAVersionThatCannotSayOpensTheGate() {
        assertTrue(gate(way(type('A')), way(valueAtLeast(3))).isOpen(), "a range names no values to keep");
        assertTrue(gate(way(type('A')), List.of((io.cepheus.pattern.SimpleCondition<Ev>) e -> true)).isOpen());
        assertTrue(ArrivalGate.over(ArrivalGate.<Ev>waysOf(List.of(List.of(way(type('A')))),
                Collections.singletonList(null))).isOpen(), "a version that cannot say how it goes on");
        ArrivalGate<Ev> closed = ArrivalGate.over(ArrivalGate.waysOf(List.of(List.of(way(type('A')))),
                List.of(List.of(way(type('B'))))));
        assertFalse(closed.isOpen());
        assertFalse(closed.mayConcern(new Ev('C', 0, "DE")));
        assertTrue(closed.mayConcern(new Ev('B', 0, "DE")), "the ways to go on count");
    }

    @Test
    void whatTheReaderCannotPlaceOrThrowsOnIsKeptAndMinusZeroIsZero() {
        ArrivalGate<Ev> numbers = gate(way(value(0, 3)));
        assertTrue(numbers.mayConcern(new Ev('A', Double.NaN, "DE")));
        assertTrue(numbers.mayConcern(new Ev('A', -0.0, "DE")));
        assertFalse(numbers.mayConcern(new Ev('A', 0.5, "DE")));
        ArrivalGate<Ev> texts = gate(way(country("DE", "IT")));
        assertTrue(texts.mayConcern(new Ev('A', 0, null)));
        assertTrue(texts.mayConcern(new Ev('A', 0, "IT")));
        assertFalse(texts.mayConcern(new Ev('A', 0, "FR")));
        ArrivalGate<Ev> throwing = gate(way(FieldRequirement.numberOneOf("fails", e -> {
            throw new IllegalStateException("a getter's own failure");
        }, 1)));
        assertTrue(throwing.mayConcern(new Ev('A', 1, "DE")), "the versions' conditions report it");
    }

    @Test
    void neverKeepsOutAnEventSomeWayMayTakeAndIgnoresTheOrderOfTheWays() {
        PropertySeeds.reportingSeed(SEED, "runtime", "ArrivalGateTest", () ->
                qt().withFixedSeed(SEED).withExamples(400)
                        .forAll(lists().of(lists().of(integers().between(0, 599)).ofSizeBetween(1, 3))
                                .ofSizeBetween(1, 12))
                        .checkAssert(codes -> {
                            List<List<FieldRequirement<Ev>>> required = new ArrayList<>();
                            List<List<Condition<Ev>>> ways = new ArrayList<>();
                            for (List<Integer> way : codes) {
                                List<FieldRequirement<Ev>> rs = new ArrayList<>();
                                for (int c : way) {
                                    rs.add(requirement(c));
                                }
                                required.add(rs);
                                ways.add(List.of(new Requiring<>(rs)));
                            }
                            ArrivalGate<Ev> gate = ArrivalGate.over(ways);
                            List<List<Condition<Ev>>> reversed = new ArrayList<>(ways);
                            Collections.reverse(reversed);
                            ArrivalGate<Ev> other = ArrivalGate.over(reversed);
                            for (Ev e : probes()) {
                                boolean kept = gate.mayConcern(e);
                                for (List<FieldRequirement<Ev>> rs : required) {
                                    assertTrue(kept || !meetsAll(rs, e), "kept out " + e + ", which meets " + codes);
                                }
                                assertEquals(kept, other.mayConcern(e), "the ways reversed, for " + e + " and "
                                        + codes);
                            }
                        }));
    }

    /** @return a requirement on type, value or country: lists, ranges, -0.0 */
    private static FieldRequirement<Ev> requirement(int code) {
        int v = code / 6 % 10;
        return switch (code % 6) {
            case 0 -> type("ABCX".charAt(v % 4), "ABCX".charAt(v / 4 % 4));
            case 1 -> value(v == 0 ? -0.0 : v, (v + 3) % 10);
            case 2 -> FieldRequirement.numberBetween("value", Ev::value, v, v + 3);
            case 3 -> country(v % 3 == 0 ? new String[] {"DE"} : v % 3 == 1 ? new String[] {"FR"}
                    : new String[] {"DE", "IT"});
            case 4 -> type("ABCX".charAt(v % 4));
            default -> value(v);
        };
    }

    /** @return whether the event meets every requirement, as the versions' conditions would at best */
    private static boolean meetsAll(List<FieldRequirement<Ev>> rs, Ev e) {
        for (FieldRequirement<Ev> r : rs) {
            boolean meets = switch (r.kind()) {
                case TEXT_ONE_OF -> {
                    String s = r.textReader().apply(e);
                    yield s == null || r.texts().contains(s);
                }
                case NUMBER_BETWEEN -> {
                    double x = r.numberReader().applyAsDouble(e);
                    yield x != x || x >= r.min() && x <= r.max();
                }
                case NUMBER_ONE_OF -> {
                    double x = r.numberReader().applyAsDouble(e);
                    boolean any = x != x;
                    for (double v : r.numbers()) {
                        any |= v == x;
                    }
                    yield any;
                }
            };
            if (!meets) {
                return false;
            }
        }
        return true;
    }

    private static List<Ev> probes() {
        List<Ev> out = new ArrayList<>();
        double[] values = {-0.0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 2.5, Double.NaN};
        String[] countries = {"DE", "FR", "IT", null};
        for (char t : "ABCX".toCharArray()) {
            for (double v : values) {
                for (String c : countries) {
                    out.add(new Ev(t, v, c));
                }
            }
        }
        return out;
    }
}

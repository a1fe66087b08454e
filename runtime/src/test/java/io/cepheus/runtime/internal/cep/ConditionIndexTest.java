package io.cepheus.runtime.internal.cep;

import static io.cepheus.runtime.internal.cep.IndexedEvents.type;
import static io.cepheus.runtime.internal.cep.IndexedEvents.value;
import static io.cepheus.runtime.internal.cep.IndexedEvents.valueAtLeast;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.FieldRequirement;
import io.cepheus.runtime.internal.cep.IndexedEvents.Ev;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link ConditionIndex}: which rule versions an event is looked at for. The index may let too many through, never
 * too few; that a rule set with it emits what each rule alone emits is {@code ManyRulesAgreementTest}.
 */
class ConditionIndexTest {

    @SafeVarargs
    private static List<List<Condition<Ev>>> way(FieldRequirement<Ev>... rs) {
        return List.of(List.of(new Requiring<>(List.of(rs))));
    }

    /** @return the versions the event is looked at for: found by the lookup and passing its other requirements */
    private static Set<Integer> begins(ConditionIndex<Ev> index, Ev e) {
        assertTrue(index.read(e));
        Set<Integer> out = new TreeSet<>();
        int n = index.collect();
        for (int i = 0; i < n; i++) {
            int h = index.found()[i];
            if (index.mayBegin(h)) {
                out.add(h);
            }
        }
        return out;
    }

    @Test
    void aThousandRulesSharingATypeTestAreIndexedByTheValueEachOwnsAlone() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        for (int r = 0; r < 1_000; r++) {
            index.put(r, way(type('A'), value(r)), null);
        }
        assertEquals(Set.of(7), begins(index, new Ev('A', 7, null)));
        assertTrue(index.read(new Ev('B', 7, null)));
        assertEquals(1, index.collect(), "one lookup: the rule of value 7, not the thousand rules of type A");
        assertFalse(index.mayBegin(index.found()[0]), "its other requirement (type A) fails");
        assertEquals(Set.of(), begins(index, new Ev('A', 1_000.5, null)));
        assertEquals(0, index.unindexed());
    }

    @Test
    void oneRuleIsIndexedUnderTheRequirementRecentEventsMeetLeast() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        index.put(0, way(type('A'), value(7)), null);
        assertTrue(index.read(new Ev('A', 3, null)));
        assertEquals(1, index.collect(), "before a sample the counts tie: the first requirement, type A, is looked up");
        // a quarter of the stream is of type A, its values spread over a thousand
        for (int i = 0; i < FieldSamples.SIZE * FieldSamples.FILLING_GAP; i++) {
            assertTrue(index.read(new Ev("ABCX".charAt(i % 4), i % 1_000, null)));
        }
        assertTrue(index.read(new Ev('A', 3, null)));
        assertEquals(0, index.collect(), "planned on the sample: value 7 is looked up, which fewer events have");
        assertEquals(Set.of(0), begins(index, new Ev('A', 7, null)));
        assertEquals(Set.of(), begins(index, new Ev('B', 7, null)));
    }

    @Test
    void valuesTheReaderCannotPlaceCountAsReachingEveryWayOnTheirField() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        index.put(0, way(FieldRequirement.textOneOf("country", Ev::country, List.of("DE")), value(7)), null);
        // every country unknown (each would reach every way on country), value 7 never
        for (int i = 0; i < FieldSamples.SIZE * FieldSamples.FILLING_GAP; i++) {
            assertTrue(index.read(new Ev('A', 8, null)));
        }
        assertTrue(index.read(new Ev('A', 8, "DE")));
        assertEquals(0, index.collect(), "looked up under value 7");
        assertEquals(Set.of(0), begins(index, new Ev('A', 7, "DE")));
    }

    @Test
    void inListsRangesAndTextsAreLookedUpAndNegativeZeroIsZero() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        index.put(0, way(value(2, 3)), null);
        index.put(1, way(valueAtLeast(5)), null);
        index.put(2, way(FieldRequirement.numberBetween("value", Ev::value, 1, 2)), null);
        index.put(3, way(FieldRequirement.textOneOf("country", Ev::country, List.of("DE", "FR"))), null);
        index.put(4, way(value(0)), null);
        assertEquals(Set.of(0, 2), begins(index, new Ev('x', 2, "IT")));
        assertEquals(Set.of(), begins(index, new Ev('x', 4.99, "IT")));
        assertEquals(Set.of(1), begins(index, new Ev('x', 5, "IT")));
        assertEquals(Set.of(1, 3), begins(index, new Ev('x', 1e9, "FR")));
        assertEquals(Set.of(4), begins(index, new Ev('x', -0.0, "IT")));
    }

    @Test
    void aLongInListIsSearchedAndItsOtherRequirementsChecked() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        double[] many = new double[12];
        for (int i = 0; i < many.length; i++) {
            many[i] = 10 * i;
        }
        index.put(0, way(type('A')), way(type('B'), value(many)));
        assertTrue(index.read(new Ev('B', 70, null)));
        assertTrue(index.mayChange(0));
        assertTrue(index.read(new Ev('B', 75, null)));
        assertFalse(index.mayChange(0));
        assertTrue(index.read(new Ev('B', 110, null)));
        assertTrue(index.mayChange(0));
        assertTrue(index.read(new Ev('C', 110, null)));
        assertFalse(index.mayChange(0));
    }

    @Test
    void aValueTheReaderCannotPlaceReachesEveryRuleOnItsField() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        index.put(0, way(value(2)), null);
        index.put(1, way(valueAtLeast(5)), null);
        index.put(2, way(FieldRequirement.textOneOf("country", Ev::country, List.of("DE"))), null);
        assertEquals(Set.of(0, 1), begins(index, new Ev('x', Double.NaN, "IT")));
        assertEquals(Set.of(2), begins(index, new Ev('x', 3, null)));
    }

    @Test
    void aFieldThatCannotBeReadVoidsTheEventsReads() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        index.put(0, way(FieldRequirement.numberOneOf("fails", e -> {
            throw new IllegalStateException("a getter's own failure");
        }, 1)), null);
        assertFalse(index.read(new Ev('x', 1, null)), "the caller then hands the event to every version");
    }

    @Test
    void aRuleWithoutRequirementsIsLookedAtForEveryEvent() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        index.put(0, List.of(List.of((io.cepheus.pattern.SimpleCondition<Ev>) e -> true)), null);
        index.put(1, way(value(1)), null);
        assertEquals(1, index.unindexed());
        assertEquals(Set.of(0), begins(index, new Ev('x', 9, null)));
    }

    @Test
    void waitingPartialMatchesAreHandedOnlyWhatTheyMayTake() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        index.put(0, way(type('A')), way(type('B'), valueAtLeast(10)));
        index.put(1, way(type('A')), null); // cannot say: every event
        assertTrue(index.read(new Ev('B', 9, null)));
        assertFalse(index.mayChange(0));
        assertTrue(index.mayChange(1));
        assertTrue(index.read(new Ev('B', 10, null)));
        assertTrue(index.mayChange(0));
        assertTrue(index.read(new Ev('C', 10, null)));
        assertFalse(index.mayChange(0));
    }

    @Test
    void anArrivingEventIsKeptIfSomeVersionMayBeginOrGoOnWithIt() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        index.put(0, way(type('A'), value(7)), way(type('B'), valueAtLeast(10)));
        index.put(1, way(type('C')), List.of());
        assertTrue(index.mayConcern(new Ev('A', 7, null)));
        assertFalse(index.mayConcern(new Ev('A', 8, null)), "no version begins with it, none goes on with an A");
        assertTrue(index.mayConcern(new Ev('B', 0, null)), "version 0 may be waiting for a B");
        assertTrue(index.mayConcern(new Ev('C', 0, null)));
        assertFalse(index.mayConcern(new Ev('X', 7, null)));
        index.put(2, way(type('X')), null); // cannot say how it goes on: every event may change it
        assertTrue(index.mayConcern(new Ev('A', 8, null)));
        index.remove(2);
        assertFalse(index.mayConcern(new Ev('A', 8, null)));
    }

    @Test
    void theIndexFollowsVersionsThatLeaveAndHandlesGivenAgain() {
        ConditionIndex<Ev> index = new ConditionIndex<>();
        index.put(0, way(value(1)), null);
        index.put(1, way(value(2)), null);
        assertEquals(Set.of(1), begins(index, new Ev('x', 2, null)));
        index.remove(1);
        assertEquals(Set.of(), begins(index, new Ev('x', 2, null)));
        index.put(1, way(value(3)), null);
        assertEquals(Set.of(), begins(index, new Ev('x', 2, null)));
        assertEquals(Set.of(1), begins(index, new Ev('x', 3, null)));
    }
}

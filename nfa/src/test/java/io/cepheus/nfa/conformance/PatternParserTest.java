package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.conformance.EvConditions.Comparison;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Contiguity;
import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.Quantifier;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PatternParserTest {

    private static final Condition.Context<Ev> NO_CONTEXT = null;

    private static Pattern<Ev> pattern(String text) {
        return PatternParser.toPattern(text, OptionalLong.empty(), "noSkip");
    }

    private static Pattern<Ev> stage(Pattern<Ev> p, String name) {
        return p.stages().stream().filter(s -> name.equals(s.name())).findFirst().orElseThrow();
    }

    @Test
    void whereAndOrChainInWrittenOrder() {
        Pattern<Ev> p = pattern("begin a where type=A or type=B where value<5");
        Condition<Ev> expected = Condition.and(
                Condition.or(new EvConditions.TypeIs('A'), new EvConditions.TypeIs('B')),
                new EvConditions.ValueCompare(Comparison.LT, 5));
        assertEquals(expected, p.condition());
        // ((A or B) and v<5), not (A or (B and v<5))
        assertFalse(p.condition().test(Ev.of('A', 7, 1), NO_CONTEXT));
        assertTrue(p.condition().test(Ev.of('B', 3, 1), NO_CONTEXT));
    }

    @Test
    void whereOrChainingIsIndependentOfConditionPrecedence() {
        // the '|' inside a condition binds looser than '&', but the clause chain is applied left to right
        Pattern<Ev> p = pattern("begin a where type=A & value>3 | type=B or type=C where value<9");
        assertTrue(p.condition().test(Ev.of('B', 0, 1), NO_CONTEXT));
        assertTrue(p.condition().test(Ev.of('C', 0, 1), NO_CONTEXT));
        assertTrue(p.condition().test(Ev.of('A', 4, 1), NO_CONTEXT));
        assertFalse(p.condition().test(Ev.of('A', 3, 1), NO_CONTEXT));
        assertFalse(p.condition().test(Ev.of('C', 9, 1), NO_CONTEXT));
    }

    @Test
    void stageOperatorsGiveContiguities() {
        Pattern<Ev> p = pattern("begin a ; next b ; followedBy c ; followedByAny d ; notNext e where type=E ;"
                + " notFollowedBy f where type=F ; followedBy g");
        List<Contiguity> got = p.stages().stream().map(Pattern::contiguity).toList();
        assertEquals(List.of(Contiguity.RELAXED, Contiguity.STRICT, Contiguity.RELAXED,
                Contiguity.NON_DETERMINISTIC_RELAXED, Contiguity.NOT_NEXT, Contiguity.NOT_FOLLOWED_BY,
                Contiguity.RELAXED), got);
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g"), p.stages().stream().map(Pattern::name).toList());
        assertNull(stage(p, "a").condition(), "a stage without where accepts every event");
    }

    @Test
    void quantifierClauses() {
        Pattern<Ev> p = pattern("begin a times 3 ; next b times 2..4 ; next c times 0..2 ; next d timesOrMore 2 ;"
                + " next e oneOrMore ; next f optional");
        assertEquals(new Quantifier(Quantifier.Kind.TIMES, 3, 3, false, false, Contiguity.RELAXED),
                stage(p, "a").quantifier());
        assertEquals(new Quantifier(Quantifier.Kind.TIMES, 2, 4, false, false, Contiguity.RELAXED),
                stage(p, "b").quantifier());
        assertEquals(new Quantifier(Quantifier.Kind.TIMES, 1, 2, true, false, Contiguity.RELAXED),
                stage(p, "c").quantifier());
        assertEquals(new Quantifier(Quantifier.Kind.LOOPING, 2, Integer.MAX_VALUE, false, false,
                Contiguity.RELAXED), stage(p, "d").quantifier());
        assertEquals(new Quantifier(Quantifier.Kind.LOOPING, 1, Integer.MAX_VALUE, false, false,
                Contiguity.RELAXED), stage(p, "e").quantifier());
        assertEquals(Quantifier.Kind.SINGLE, stage(p, "f").quantifier().kind());
        assertTrue(stage(p, "f").quantifier().optional());
    }

    @Test
    void clausesApplyInCanonicalOrderWhateverTheWrittenOrder() {
        // written backwards: the builder would reject greedy/until/consecutive before the quantifier
        Pattern<Ev> p = pattern("begin s ; followedBy a within 7 until type=C greedy consecutive optional oneOrMore"
                + " where type=A");
        Quantifier q = p.quantifier();
        assertEquals(Quantifier.Kind.LOOPING, q.kind());
        assertTrue(q.optional());
        assertTrue(q.greedy());
        assertEquals(Contiguity.STRICT, q.inner());
        assertEquals(new EvConditions.TypeIs('C'), p.untilCondition());
        assertEquals(new EvConditions.TypeIs('A'), p.condition());
        assertEquals(Optional.of(Duration.ofMillis(7)), p.window(WithinType.FIRST_AND_LAST));

        Pattern<Ev> combos = pattern("begin a allowCombinations times 2");
        assertEquals(Contiguity.NON_DETERMINISTIC_RELAXED, combos.quantifier().inner());
    }

    @Test
    void windows() {
        Pattern<Ev> p = PatternParser.toPattern("begin a ; followedBy b withinPrev 3 ; followedBy c within 9",
                OptionalLong.of(20), "noSkip");
        assertEquals(Optional.of(Duration.ofMillis(3)), stage(p, "b").window(WithinType.PREVIOUS_AND_CURRENT));
        assertEquals(Optional.empty(), stage(p, "b").window(WithinType.FIRST_AND_LAST));
        // the header window is within() on the last stage, applied after the stage's own clauses
        assertEquals(Optional.of(Duration.ofMillis(20)), p.window(WithinType.FIRST_AND_LAST));
        assertEquals(Optional.empty(), stage(p, "a").window(WithinType.FIRST_AND_LAST));

        Pattern<Ev> stageOnly = pattern("begin a within 4 ; followedBy b");
        assertEquals(Optional.of(Duration.ofMillis(4)), stage(stageOnly, "a").window(WithinType.FIRST_AND_LAST));
        assertEquals(Optional.empty(), stageOnly.window(WithinType.FIRST_AND_LAST));
    }

    @Test
    void skipStrategies() {
        assertEquals(AfterMatchSkipStrategy.noSkip(), PatternParser.parseSkip("noSkip"));
        assertEquals(AfterMatchSkipStrategy.skipToNext(), PatternParser.parseSkip("skipToNext"));
        assertEquals(AfterMatchSkipStrategy.skipPastLastEvent(), PatternParser.parseSkip(" skipPastLastEvent "));
        assertEquals(AfterMatchSkipStrategy.skipToFirst("b"), PatternParser.parseSkip("skipToFirst b"));
        assertEquals(AfterMatchSkipStrategy.skipToLast("b"), PatternParser.parseSkip("skipToLast  b"));
        assertFalse(PatternParser.parseSkip("skipToLast b").throwOnAbsent());
        Pattern<Ev> p = PatternParser.toPattern("begin a ; next b", OptionalLong.empty(), "skipToLast b");
        assertEquals(AfterMatchSkipStrategy.skipToLast("b"), p.skipStrategy());
        for (String bad : List.of("skipToFirst", "noSkip a", "skipPast", "skipToLast a b")) {
            assertThrows(CaseSyntaxException.class, () -> PatternParser.parseSkip(bad), bad);
        }
    }

    @Test
    void builderRejectionsSurfaceAsTheBuildersException() {
        PatternSpec untilOnSingle = PatternParser.parse("begin a where type=A until type=C ; followedBy b");
        assertThrows(MalformedPatternException.class,
                () -> untilOnSingle.build(OptionalLong.empty(), AfterMatchSkipStrategy.noSkip()));
        assertThrows(MalformedPatternException.class, () -> pattern("begin a optional ; notNext n ; next c"));
        assertThrows(MalformedPatternException.class, () -> pattern("begin a ; next a"));
    }

    @Test
    void rejectsTextOutsideTheLanguage() {
        for (String bad : List.of("", "begin", "next a", "begin a ; begin b", "begin a ;", "begin a frob",
                "begin a times", "begin a times x", "begin a times 1..", "begin a where", "begin where type=A",
                "begin a where type=A or", "follow a", "begin a within", "begin a where type=")) {
            assertThrows(CaseSyntaxException.class, () -> PatternParser.parse(bad), bad);
        }
    }
}

package io.cepheus.nfa;

import static io.cepheus.nfa.TestEvent.kind;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.IterativeCondition;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.SimpleCondition;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The examples in {@link Pattern}'s Javadoc, run as written (each was also run through Flink 2.3's CepOperator
 * with the same result). An event {@code b7} has kind {@code b} and price 7.
 */
class PatternJavadocExamplesTest {

    private static int price(TestEvent e) {
        return Integer.parseInt(e.name().substring(1));
    }

    private static final SimpleCondition<TestEvent> COSTLY = e -> price(e) > 10;

    private static List<String> run(Pattern<TestEvent> p, String events) {
        return Run.of(p, events).matches;
    }

    /** Events at the given times: {@code "a1@1 b1@10"}. */
    private static Run timed(Pattern<TestEvent> p, String events) {
        NfaMatcher<TestEvent> m = NfaCompiler.compile(p).newMatcher();
        NfaState s = m.newState("k");
        Run run = new Run();
        for (String word : events.split(" ")) {
            String[] at = word.split("@");
            long ts = Long.parseLong(at[1]);
            m.process(s, new TestEvent(at[0], ts), ts, run);
        }
        m.advanceTime(s, Long.MAX_VALUE, run);
        return run;
    }

    private static Pattern<TestEvent> ab(AfterMatchSkipStrategy skip) {
        return Pattern.<TestEvent>begin("a", skip).where(kind('a')).followedBy("b").where(kind('b'));
    }

    private static Pattern<TestEvent> aNextB() {
        return Pattern.<TestEvent>begin("a").where(kind('a')).next("b").where(kind('b'));
    }

    @Test
    void begin() {
        assertEquals(List.of("a1 b1", "a2 b1"), run(ab(AfterMatchSkipStrategy.noSkip()), "a1 c1 a2 b1"));
        assertEquals(List.of("a1 b1"), run(ab(AfterMatchSkipStrategy.skipPastLastEvent()), "a1 a2 b1"));
        assertEquals(List.of("a1 b1", "a2 b1"), run(ab(AfterMatchSkipStrategy.noSkip()), "a1 a2 b1"));
        assertEquals(List.of("a1 b1 a2 b2"), run(Pattern.begin(aNextB()).times(2), "a1 b1 a2 b2"));
        assertEquals(List.of("a1 b1 c1"), run(Pattern.begin(aNextB(), AfterMatchSkipStrategy.skipPastLastEvent())
                .followedBy("c").where(kind('c')), "a1 b1 a2 b2 c1"));
        assertEquals(List.of("a1 b1 c1", "a2 b2 c1"), run(Pattern.begin(aNextB()).followedBy("c")
                .where(kind('c')), "a1 b1 a2 b2 c1"));
    }

    @Test
    void appendingGroups() {
        Pattern<TestEvent> a = Pattern.<TestEvent>begin("a").where(kind('a'));
        Pattern<TestEvent> bThenC = Pattern.<TestEvent>begin("b").where(kind('b')).followedBy("c").where(kind('c'));
        Pattern<TestEvent> bNextC = Pattern.<TestEvent>begin("b").where(kind('b')).next("c").where(kind('c'));
        assertEquals(List.of("a1 b1 c1"), run(a.next(bThenC), "a1 b1 d1 c1"));
        assertEquals(List.of(), run(a.next(bThenC), "a1 d1 b1 c1"));
        assertEquals(List.of("a1 b1 c1"), run(a.followedBy(bNextC), "a1 d1 b1 c1"));
        assertEquals(List.of(), run(a.followedBy(bNextC), "a1 b1 d1 c1"));
        assertEquals(List.of("a1 b1 c1", "a1 b2 c2"), run(a.followedByAny(bNextC), "a1 b1 c1 b2 c2"));
        assertEquals(List.of("a1 b1 c1"), run(a.followedBy(bNextC), "a1 b1 c1 b2 c2"));
    }

    @Test
    void conditions() {
        assertEquals(List.of("a1", "a2"), run(Pattern.<TestEvent>begin("a").where(e -> e.kind() == 'a'), "a1 b1 a2"));
        IterativeCondition<TestEvent> up = (e, ctx) -> price(e) > price(ctx.eventsForPattern("start").get(0));
        assertEquals(List.of("a5 a7", "a3 a7"), run(Pattern.<TestEvent>begin("start").followedBy("up").where(up),
                "a5 a3 a7"));
        SimpleCondition<TestEvent> isA = kind('a');
        assertEquals(List.of("a12"), run(Pattern.<TestEvent>begin("x").where(isA.and(COSTLY)), "a5 a12 b20"));
        assertEquals(List.of("a1", "b1"), run(Pattern.<TestEvent>begin("x").where(kind('a')).or(kind('b')),
                "a1 c1 b1"));
        IterativeCondition<TestEvent> aboveA = (e, ctx) -> price(e) > price(ctx.eventsForPattern("a").get(0));
        assertEquals(List.of("a5 c9"), run(Pattern.<TestEvent>begin("a").where(kind('a')).followedBy("b")
                .where(kind('b')).or(aboveA), "a5 c9 b1"));
        Condition<TestEvent> costlyB = kind('b').and(COSTLY);
        assertEquals(List.of("a1", "b20"), run(Pattern.<TestEvent>begin("x").where(kind('a')).or(costlyB),
                "a1 b5 b20"));
    }

    @Test
    void until() {
        IterativeCondition<TestEvent> cheaperThanS = (e, ctx) -> price(e) < price(ctx.eventsForPattern("s").get(0));
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("s").where(kind('s')).followedBy("b").where(kind('b'))
                .oneOrMore().until(cheaperThanS).followedBy("e").where(kind('e'));
        assertEquals(List.of("s5 b6 b7 e1", "s5 b6 e1"), run(p, "s5 b6 b7 b3 b8 e1"));
        Pattern<TestEvent> untilCOrD = Pattern.<TestEvent>begin("s").where(kind('s')).followedBy("b")
                .where(kind('b')).oneOrMore().until(kind('c').or(kind('d'))).followedBy("e").where(kind('e'));
        assertEquals(List.of("s1 b1 b2 e1", "s1 b1 e1"), run(untilCOrD, "s1 b1 b2 d1 b3 e1"));
    }

    sealed interface Sensor permits Temperature, Pressure {
    }

    record Temperature(int celsius) implements Sensor {
    }

    record Pressure(int bar) implements Sensor {
    }

    @Test
    void subtype() {
        Pattern<Sensor> p = Pattern.<Sensor>begin("t").subtype(Temperature.class);
        NfaMatcher<Sensor> m = NfaCompiler.compile(p).newMatcher();
        NfaState s = m.newState("k");
        List<Object> seen = new ArrayList<>();
        long ts = 1;
        for (Sensor e : List.of(new Temperature(20), new Pressure(3), new Temperature(45))) {
            m.process(s, e, ts++, match -> seen.addAll(match.allEvents()));
        }
        assertEquals(List.of(new Temperature(20), new Temperature(45)), seen);
    }

    @Test
    void quantifiers() {
        Pattern<TestEvent> a = Pattern.<TestEvent>begin("a").where(kind('a'));
        assertEquals(List.of("a1 a2 b1", "a1 b1", "a2 b1"), run(a.times(1, 2).followedBy("b").where(kind('b')),
                "a1 a2 b1"));
        assertEquals(List.of("a1 a2 a3 b1", "a1 a2 b1", "a2 a3 b1"), run(a.timesOrMore(2).followedBy("b")
                .where(kind('b')), "a1 a2 a3 b1"));
    }

    @Test
    void windows() {
        Pattern<TestEvent> ab = ab(AfterMatchSkipStrategy.noSkip()).within(Duration.ofMillis(10));
        assertEquals(List.of("a1 b1"), timed(ab, "a1@1 b1@10").matches);
        assertEquals(List.of("a1 @11"), timed(ab, "a1@1 b1@11").timeouts);
        Pattern<TestEvent> gap = ab(AfterMatchSkipStrategy.noSkip())
                .within(Duration.ofMillis(5), WithinType.PREVIOUS_AND_CURRENT).followedBy("c").where(kind('c'));
        assertEquals(List.of("a1 b1 c1"), timed(gap, "a1@1 b1@3 c1@7").matches);
        assertEquals(List.of("a1 @6"), timed(gap, "a1@1 b1@6").timeouts);
    }

    @Test
    void windowsBetweenTheEventsOfATimesStage() {
        Pattern<TestEvent> b = Pattern.<TestEvent>begin("b").where(kind('b'));
        Pattern<TestEvent> times = b.followedBy("a").where(kind('a')).times(3, Duration.ofMillis(5));
        assertEquals(List.of("b1 a1 a2 a3"), timed(times, "b1@1 a1@3 a2@7 a3@20").matches,
                "the wait for the last event is not bounded");
        assertEquals(List.of("b1 a1 @8"), timed(times, "b1@1 a1@3 a2@9").timeouts);
        assertEquals(List.of("b1 @6"), timed(times, "b1@1 a1@7").timeouts, "the wait for the first one is");
        Pattern<TestEvent> loop = b.followedBy("a").where(kind('a')).oneOrMore(Duration.ofMillis(5))
                .followedBy("c").where(kind('c'));
        assertEquals(List.of("b1 @6"), timed(loop, "b1@1 a1@7 c1@8").timeouts);
        assertEquals(List.of("b1 a1 a2 c1", "b1 a1 c1"), timed(loop, "b1@1 a1@3 a2@20 c1@21").matches);
        Pattern<TestEvent> first = Pattern.<TestEvent>begin("a").where(kind('a')).times(2, Duration.ofMillis(5))
                .followedBy("c").where(kind('c'));
        assertEquals(List.of("a1 a2 c1"), timed(first, "a1@1 a2@20 c1@21").matches, "on a first stage: no bound");
    }
}

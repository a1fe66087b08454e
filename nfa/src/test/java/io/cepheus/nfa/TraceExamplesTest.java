package io.cepheus.nfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.trace.EndReason;
import io.cepheus.nfa.trace.TraceEntry;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.ReadsFields;
import io.cepheus.pattern.SimpleCondition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a key's trace says for the usual reasons a pattern does not match: each example names the partial match,
 * the reason and the stage a user would look for.
 */
class TraceExamplesTest {

    /** An event with a kind and an amount, whose conditions say which fields they read. */
    record Tx(char kind, int amount) {
    }

    /** {@code kind == k}, reading the field {@code kind}. */
    record KindIs(char k) implements SimpleCondition<Tx>, ReadsFields<Tx> {
        @Override
        public boolean filter(Tx e) {
            return e.kind() == k;
        }

        @Override
        public Map<String, Object> fieldValues(Tx e) {
            return Map.of("kind", e.kind());
        }
    }

    /** {@code amount > min}, reading the field {@code amount}. */
    record AmountAbove(int min) implements SimpleCondition<Tx>, ReadsFields<Tx> {
        @Override
        public boolean filter(Tx e) {
            return e.amount() > min;
        }

        @Override
        public Map<String, Object> fieldValues(Tx e) {
            return Map.of("amount", e.amount());
        }
    }

    private final List<TraceEntry> trace = new ArrayList<>();

    private NfaMatcher<Tx> traced(Pattern<Tx> pattern, NfaOptions options) {
        NfaMatcher<Tx> matcher = NfaCompiler.compile(pattern).newMatcher(options);
        matcher.trace("k", trace::add);
        return matcher;
    }

    private <E extends TraceEntry> List<E> entries(Class<E> type) {
        return trace.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void strictContiguityBrokenNamesTheStageAndTheFieldsItsConditionRead() {
        NfaMatcher<Tx> m = traced(Pattern.<Tx>begin("small").where(new AmountAbove(0)).next("large")
                .where(new AmountAbove(500)), NfaOptions.defaults());
        NfaState st = m.newState("k");
        m.process(st, new Tx('c', 1), 1, MatchSink.discarding());
        m.process(st, new Tx('c', 20), 2, MatchSink.discarding());

        TraceEntry.Ended ended = entries(TraceEntry.Ended.class).get(0);
        assertEquals(1, ended.partialMatch());
        assertEquals(EndReason.CONDITION_FALSE, ended.reason());
        assertEquals("large", ended.stage());
        assertEquals(2, ended.time());
        assertTrue(ended.detail().startsWith("strict contiguity broken"), ended.detail());
        assertEquals(Map.of("amount", 20), ended.fields());
        // the second event started partial match 2, which waits
        assertEquals(List.of(1, 2), entries(TraceEntry.Started.class).stream().map(TraceEntry.Started::partialMatch)
                .toList());
    }

    @Test
    void relaxedContiguitySkipsWithTheFieldValuesThenCompletes() {
        NfaMatcher<Tx> m = traced(Pattern.<Tx>begin("a").where(new KindIs('a')).followedBy("b")
                .where(new KindIs('b')), NfaOptions.defaults());
        NfaState st = m.newState("k");
        List<Match<Tx>> matches = new ArrayList<>();
        MatchSink<Tx> sink = matches::add;
        m.process(st, new Tx('a', 0), 1, sink);
        m.process(st, new Tx('x', 0), 2, sink);
        m.process(st, new Tx('b', 0), 3, sink);

        TraceEntry.Skipped skipped = entries(TraceEntry.Skipped.class).get(0);
        assertEquals(new TraceEntry.Skipped(2, 1, "b", Map.of("kind", 'x')), skipped);
        TraceEntry.Completed done = entries(TraceEntry.Completed.class).get(0);
        assertEquals(1, done.partialMatch());
        assertEquals(matches.get(0), done.match());
        assertTrue(!done.continues());
    }

    @Test
    void aWindowThatClosesTimesThePartialMatchOutAtItsEnd() {
        NfaMatcher<Tx> m = traced(Pattern.<Tx>begin("a").where(new KindIs('a')).followedBy("b")
                .where(new KindIs('b')).within(Duration.ofMillis(10)), NfaOptions.defaults());
        NfaState st = m.newState("k");
        m.process(st, new Tx('a', 0), 5, MatchSink.discarding());
        m.advanceTime(st, 100, MatchSink.discarding());

        TraceEntry.Ended ended = entries(TraceEntry.Ended.class).get(0);
        assertEquals(EndReason.TIMED_OUT, ended.reason());
        assertEquals(15, ended.time());
        assertEquals("b", ended.stage());
        assertTrue(ended.detail().contains("window of 10 ms"), ended.detail());
    }

    @Test
    void aNotStageThatSeesItsEventEndsThePartialMatch() {
        NfaMatcher<Tx> m = traced(Pattern.<Tx>begin("a").where(new KindIs('a')).notNext("cancel")
                .where(new KindIs('c')).followedBy("b").where(new KindIs('b')), NfaOptions.defaults());
        NfaState st = m.newState("k");
        m.process(st, new Tx('a', 0), 1, MatchSink.discarding());
        m.process(st, new Tx('c', 0), 2, MatchSink.discarding());

        TraceEntry.Ended ended = entries(TraceEntry.Ended.class).get(0);
        assertEquals(EndReason.NOT_STAGE_MATCHED, ended.reason());
        assertEquals("cancel", ended.stage());
        assertEquals(Map.of("kind", 'c'), ended.fields());
    }

    @Test
    void theSkipStrategyPrunesAndTheBoundRejects() {
        // skip past the last event: the match a1 b prunes the partial match a2 began
        NfaMatcher<Tx> m = traced(Pattern.<Tx>begin("a", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(new KindIs('a')).followedByAny("b").where(new KindIs('b')), NfaOptions.defaults());
        NfaState st = m.newState("k");
        m.process(st, new Tx('a', 1), 1, MatchSink.discarding());
        m.process(st, new Tx('a', 2), 2, MatchSink.discarding());
        m.process(st, new Tx('b', 0), 3, MatchSink.discarding());
        assertEquals(List.of(EndReason.PRUNED, EndReason.PRUNED), entries(TraceEntry.Ended.class).stream()
                .map(TraceEntry.Ended::reason).toList());

        trace.clear();
        NfaMatcher<Tx> bounded = traced(Pattern.<Tx>begin("a").where(new KindIs('a')).followedBy("b")
                .where(new KindIs('b')), NfaOptions.defaults().withMaxPartialMatchesPerKey(1));
        NfaState key = bounded.newState("k");
        bounded.process(key, new Tx('a', 1), 1, MatchSink.discarding());
        bounded.process(key, new Tx('a', 2), 2, MatchSink.discarding());
        TraceEntry.Ended rejected = entries(TraceEntry.Ended.class).get(0);
        assertEquals(EndReason.REJECTED, rejected.reason());
        assertEquals(2, rejected.partialMatch());
    }

    @Test
    void discardingEndsEveryPartialMatchAndUntracedKeysReportNothing() {
        NfaMatcher<Tx> m = traced(Pattern.<Tx>begin("a").where(new KindIs('a')).followedBy("b")
                .where(new KindIs('b')), NfaOptions.defaults());
        NfaState other = m.newState("other");
        m.process(other, new Tx('a', 0), 1, MatchSink.discarding());
        assertEquals(List.of(), trace);

        NfaState st = m.newState("k");
        m.process(st, new Tx('a', 0), 1, MatchSink.discarding());
        m.discard(st);
        assertEquals(EndReason.DISCARDED, entries(TraceEntry.Ended.class).get(0).reason());

        m.trace("k", null);
        trace.clear();
        m.process(st, new Tx('a', 0), 2, MatchSink.discarding());
        assertEquals(List.of(), trace);
    }

    @Test
    void aStateTheKeyAlreadyHasIsTracedWhenPassedIn() {
        NfaMatcher<Tx> m = NfaCompiler.compile(Pattern.<Tx>begin("a").where(new KindIs('a')).followedBy("b")
                .where(new KindIs('b'))).newMatcher();
        NfaState st = m.newState("k");
        m.process(st, new Tx('a', 0), 1, MatchSink.discarding());
        m.trace("k", trace::add);
        m.process(st, new Tx('x', 0), 2, MatchSink.discarding());
        assertEquals(List.of(), trace, "the state created before the trace is found only when passed in");

        m.trace("k", st, trace::add);
        m.process(st, new Tx('b', 0), 3, MatchSink.discarding());
        assertEquals(1, entries(TraceEntry.Completed.class).get(0).partialMatch(),
                "the partial match begun before the trace is numbered when first seen");

        m.trace("k", null, null); // stopped without the state at hand: its next step finds no tracer and stops
        trace.clear();
        m.process(st, new Tx('a', 0), 4, MatchSink.discarding());
        assertEquals(List.of(), trace);
    }
}

package io.cepheus.nfa.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.NfaState;
import io.cepheus.nfa.OverflowPolicy;
import io.cepheus.nfa.trace.EndReason;
import io.cepheus.nfa.trace.TraceEntry;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Property test of key traces ({@link NfaMatcher#trace}): on random patterns and streams, a traced key emits exactly
 * what an untraced one does, and its trace accounts for every partial match: after each step and advance, the
 * partial matches the trace has opened (started, or branched off another) and not closed (ended, or completed without
 * living on) are as many as the key holds, and no entry speaks of a partial match that is not open. Run once with a
 * bound far above what a stream creates and once with a bound of three under {@link OverflowPolicy#REJECT_NEW}, so
 * that rejections are traced too, each without and with a skip strategy, so that pruning is.
 *
 * <p>Reproducible: {@code -Dcepheus.seed=...}, printed on failure.
 */
class TracedKeysTest {

    private static final long DEFAULT_SEED = 0x7EACE5L;
    private static final int EXAMPLES = Integer.getInteger("cepheus.examples", 3000);

    private static final NfaOptions UNBOUNDED = NfaOptions.defaults().withMaxPartialMatchesPerKey(10_000_000)
            .withOverflowPolicy(OverflowPolicy.FAIL).withProcessingTime(() -> 0L).withStageCounters(true);
    private static final NfaOptions BOUND_OF_THREE = NfaOptions.defaults().withMaxPartialMatchesPerKey(3)
            .withOverflowPolicy(OverflowPolicy.REJECT_NEW).withProcessingTime(() -> 0L).withStageCounters(true);

    @Test
    void tracesAccountForEveryPartialMatchAndChangeNoOutput() {
        long seed = io.cepheus.nfa.testing.PropertySeeds.seed(DEFAULT_SEED);
        Map<EndReason, Integer> reasons = new EnumMap<>(EndReason.class);
        int[] completed = new int[1];
        for (NfaOptions options : List.of(UNBOUNDED, BOUND_OF_THREE)) {
            for (AfterMatchSkipStrategy skip : List.of(AfterMatchSkipStrategy.noSkip(),
                    AfterMatchSkipStrategy.skipPastLastEvent())) {
                io.cepheus.nfa.testing.PropertySeeds.reportingSeed(seed, "nfa", "TracedKeysTest",
                        () -> qt().withFixedSeed(seed).withExamples(EXAMPLES).forAll(ScenarioGenerators.scenarios())
                                .checkAssert(s -> check(s, options, skip, reasons, completed)));
            }
        }
        // not a vacuous pass: the streams end partial matches for every reason the random patterns can give (they
        // have no NOT stages: TraceExamplesTest traces those)
        for (EndReason reason : List.of(EndReason.CONDITION_FALSE, EndReason.TIMED_OUT, EndReason.PRUNED,
                EndReason.REJECTED)) {
            assertTrue(reasons.getOrDefault(reason, 0) > 20, reason + " traced only " + reasons.get(reason) + " times");
        }
        assertTrue(completed[0] > 1000, "matches traced: " + completed[0]);
    }

    private static void check(Scenario s, NfaOptions options, AfterMatchSkipStrategy skip,
            Map<EndReason, Integer> reasons, int[] completed) {
        Outcome untraced = run(s, options, skip, false);
        Outcome traced;
        List<TraceEntry> seen = new ArrayList<>();
        try {
            traced = run(s, options, skip, true, seen);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + " of\n" + s + "\nskip: " + skip + "\n" + String.join("\n",
                    seen.stream().map(Object::toString).toList()), e);
        }
        if (!untraced.matches.equals(traced.matches) || untraced.timeouts != traced.timeouts) {
            throw new AssertionError("tracing changed the output of\n" + s + "\nskip: " + skip + "\nuntraced: "
                    + untraced.matches + ", "
                    + untraced.timeouts + " timeouts\ntraced: " + traced.matches + ", " + traced.timeouts
                    + " timeouts");
        }
        int matchesTraced = 0;
        for (TraceEntry e : traced.trace) {
            if (e instanceof TraceEntry.Ended end) {
                reasons.merge(end.reason(), 1, Integer::sum);
            } else if (e instanceof TraceEntry.Completed) {
                matchesTraced++;
            }
        }
        completed[0] += matchesTraced;
        if (matchesTraced < traced.matches.size()) {
            throw new AssertionError("the trace shows " + matchesTraced + " completed matches, the key emitted "
                    + traced.matches.size() + ", for\n" + s + "\n" + traced.trace);
        }
    }

    private record Outcome(List<Map<String, List<RefEvent>>> matches, int timeouts, List<TraceEntry> trace,
            NfaMatcher<RefEvent> matcher) {
    }

    /**
     * The matcher's counters, of its one key, say what the trace says: partial matches started and pruned, and per
     * stage the events taken, the partial matches an event ended and those that timed out.
     */
    private static void countersAgreeWithTheTrace(Outcome traced) {
        NfaMatcher<RefEvent> m = traced.matcher;
        Map<String, long[]> byStage = new java.util.LinkedHashMap<>();
        for (io.cepheus.nfa.StageCounters c : m.stageCounters()) {
            byStage.put(c.stage(), new long[3]);
        }
        long started = 0;
        long pruned = 0;
        for (TraceEntry e : traced.trace) {
            if (e instanceof TraceEntry.Started st) {
                started++;
                byStage.get(st.stage())[0]++;
            } else if (e instanceof TraceEntry.Took took && took.stage() != null) {
                byStage.get(took.stage())[0]++;
            } else if (e instanceof TraceEntry.Ended end && end.reason() == EndReason.PRUNED) {
                pruned++;
            } else if (e instanceof TraceEntry.Ended end && end.reason() == EndReason.CONDITION_FALSE) {
                byStage.get(end.stage())[1]++;
            } else if (e instanceof TraceEntry.Ended end && end.reason() == EndReason.TIMED_OUT) {
                byStage.get(end.stage())[2]++;
            }
        }
        assertEquals(started, m.partialMatchesStarted(), "started");
        assertEquals(pruned, m.partialMatchesPruned(), "pruned");
        for (io.cepheus.nfa.StageCounters c : m.stageCounters()) {
            long[] traced3 = byStage.get(c.stage());
            assertEquals(traced3[0], c.taken(), "taken at " + c.stage());
            assertEquals(traced3[1], c.rejected(), "rejected at " + c.stage());
            assertEquals(traced3[2], c.timedOut(), "timed out at " + c.stage());
        }
    }

    private static Outcome run(Scenario s, NfaOptions options, AfterMatchSkipStrategy skip, boolean traced) {
        return run(s, options, skip, traced, new ArrayList<>());
    }

    private static Outcome run(Scenario s, NfaOptions options, AfterMatchSkipStrategy skip, boolean traced,
            List<TraceEntry> trace) {
        CompiledPattern<RefEvent> compiled = NfaCompiler.compile(s.spec().toPattern(skip));
        NfaMatcher<RefEvent> matcher = compiled.newMatcher(options);
        if (traced) {
            matcher.trace("key", trace::add);
        }
        List<Map<String, List<RefEvent>>> matches = new ArrayList<>();
        int[] timeouts = new int[1];
        MatchSink<RefEvent> sink = new MatchSink<>() {
            @Override
            public void onMatch(Match<RefEvent> match) {
                matches.add(match.asMap());
            }

            @Override
            public void onTimeout(Match<RefEvent> partialMatch, long timeoutTimestamp) {
                timeouts[0]++;
            }
        };
        NfaState state = matcher.newState("key");
        Set<Integer> open = new HashSet<>();
        int[] read = new int[1];
        for (RefEvent e : s.events()) {
            matcher.process(state, e, e.ts(), sink);
            if (traced) {
                follow(trace, read, open, state, s, "event " + e.index());
            }
        }
        matcher.advanceTime(state, Long.MAX_VALUE, sink);
        if (traced) {
            follow(trace, read, open, state, s, "the final advance");
        }
        Outcome outcome = new Outcome(matches, timeouts[0], trace, matcher);
        if (traced) {
            countersAgreeWithTheTrace(outcome);
        }
        return outcome;
    }

    /** Reads the entries added since the last call, keeping the open partial matches, and checks them. */
    private static void follow(List<TraceEntry> trace, int[] read, Set<Integer> open, NfaState state, Scenario s,
            String after) {
        for (; read[0] < trace.size(); read[0]++) {
            TraceEntry e = trace.get(read[0]);
            String where = "entry " + read[0] + " after " + after; // the whole trace is in the failure's message
            if (e instanceof TraceEntry.Started st) {
                assertTrue(open.add(st.partialMatch()), "started twice: " + where);
            } else if (e instanceof TraceEntry.Took took) {
                if (took.from() == 0) {
                    assertTrue(open.contains(took.partialMatch()), "took while not open: " + where);
                } else {
                    assertTrue(open.contains(took.from()), "branched off one not open: " + where);
                    assertTrue(open.add(took.partialMatch()), "branched into one open: " + where);
                }
            } else if (e instanceof TraceEntry.Skipped skipped) {
                assertTrue(open.contains(skipped.partialMatch()), "skipped while not open: " + where);
            } else if (e instanceof TraceEntry.Ended end) {
                assertTrue(open.remove(end.partialMatch()), "ended while not open: " + where);
            } else if (e instanceof TraceEntry.Completed c) {
                assertTrue(open.contains(c.partialMatch()), "completed while not open: " + where);
                if (!c.continues()) {
                    open.remove(c.partialMatch());
                }
            }
        }
        if (open.size() != state.partialMatchCount()) {
            throw new AssertionError("after " + after + " the trace has " + open.size() + " open partial matches "
                    + open + ", the key holds " + state.partialMatchCount());
        }
    }
}

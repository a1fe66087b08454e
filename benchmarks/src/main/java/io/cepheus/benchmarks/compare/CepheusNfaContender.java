package io.cepheus.benchmarks.compare;

import com.carrotsearch.hppc.IntObjectHashMap;
import com.carrotsearch.hppc.cursors.ObjectCursor;
import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.CountingSink;
import io.cepheus.benchmarks.workloads.RunResult;
import io.cepheus.benchmarks.workloads.Workloads;
import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaState;

/**
 * Cepheus's side of a CEP comparison: the bare NFA on one thread, exactly as
 * {@link io.cepheus.benchmarks.workloads.WorkloadRunner} runs it with {@code Watermarks.AT_END} (one
 * {@link NfaState} per key in an hppc map, {@code process} per event, {@code advanceTime(Long.MAX_VALUE)} on every
 * key at the end), except that the states stay referenced by the {@link Trial} after the run, so the harness can
 * measure the heap they retain. {@code ComparisonContendersTest} checks it reproduces WORKLOADS.md.
 *
 * <p>The pattern is compiled once here; every trial gets a fresh matcher, map and sink.
 */
final class CepheusNfaContender implements Contender {

    private final CepInput input;
    private final CompiledPattern<BenchEvent> compiled;

    CepheusNfaContender(CepInput input) {
        this.input = input;
        this.compiled = NfaCompiler.compile(Workloads.pattern(input.workload()));
    }

    @Override
    public String engine() {
        return "Cepheus (bare NFA)";
    }

    @Override
    public Trial prepare() {
        return new NfaTrial(input, compiled.newMatcher());
    }

    /** One run; owned by the harness thread. */
    private static final class NfaTrial implements Trial {

        private final CepInput input;
        private NfaMatcher<BenchEvent> matcher;
        private IntObjectHashMap<NfaState> states;

        NfaTrial(CepInput input, NfaMatcher<BenchEvent> matcher) {
            this.input = input;
            this.matcher = matcher;
        }

        @Override
        public RunResult feed() {
            CountingSink sink = new CountingSink(input.workload().countsTimeouts());
            // sized inside the timed part, as WorkloadRunner does
            states = new IntObjectHashMap<>(input.workload().keys());
            int[] keys = input.keys();
            long[] timestamps = input.timestamps();
            BenchEvent[] events = input.events();
            int length = input.length();
            for (int i = 0; i < length; i++) {
                int key = keys[i];
                int slot = states.indexOf(key);
                NfaState state;
                if (states.indexExists(slot)) {
                    state = states.indexGet(slot);
                } else {
                    state = matcher.newState(key);
                    states.indexInsert(slot, key, state);
                }
                matcher.process(state, events[i], timestamps[i], sink);
            }
            for (ObjectCursor<NfaState> cursor : states.values()) {
                matcher.advanceTime(cursor.value, Long.MAX_VALUE, sink);
            }
            return sink.result();
        }

        @Override
        public void close() {
            matcher = null;
            states = null;
        }
    }
}

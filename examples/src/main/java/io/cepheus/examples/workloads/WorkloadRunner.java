package io.cepheus.examples.workloads;

import com.carrotsearch.hppc.IntObjectHashMap;
import com.carrotsearch.hppc.cursors.ObjectCursor;
import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaState;
import java.util.Objects;

/**
 * Runs a workload stream through the NFA on the calling thread, the way a single shard would: one state per
 * key in an hppc {@link IntObjectHashMap}, events in order, {@code process} per event, and
 * {@code advanceTime(Long.MAX_VALUE)} on every key at the end to flush the partial matches still open.
 *
 * <p>Event time: the matcher advances a key to an event's time before matching it, so a partial match whose
 * window has closed times out when its key sees its next event, or at the final flush. Either way every
 * timed-out partial match is reported exactly once; periodic watermarks only change <em>when</em>. The
 * {@link Watermarks#EVERY_1000_EVENTS} mode (a watermark {@code ts - 1} to every key after every 1,000 events,
 * as WORKLOADS.md suggests) exists to check that claim; the benchmarks use {@link Watermarks#AT_END}, because
 * visiting every key every 1,000 events would measure the visiting, not the engine.
 *
 * <p>Each {@link #run} uses a fresh matcher and fresh states; the compiled pattern is reused.
 */
public final class WorkloadRunner {

    /** How event time is driven for keys that receive no event. */
    public enum Watermarks {
        /** Only each key's own events advance its time; {@code Long.MAX_VALUE} to every key at the end. */
        AT_END,
        /** Additionally a watermark {@code ts - 1} to every key after every 1,000 events. */
        EVERY_1000_EVENTS
    }

    private static final int WATERMARK_INTERVAL = 1_000;

    private final CompiledPattern<BenchEvent> compiled;
    private final Watermarks watermarks;

    /**
     * @param compiled   the compiled pattern of the workload
     * @param watermarks how time is driven
     */
    public WorkloadRunner(CompiledPattern<BenchEvent> compiled, Watermarks watermarks) {
        this.compiled = Objects.requireNonNull(compiled, "compiled");
        this.watermarks = Objects.requireNonNull(watermarks, "watermarks");
    }

    /**
     * @param workload the workload whose pattern to compile
     * @return a runner with {@link Watermarks#AT_END}
     */
    public static WorkloadRunner forWorkload(Workload workload) {
        return new WorkloadRunner(NfaCompiler.compile(Workloads.pattern(workload)), Watermarks.AT_END);
    }

    /**
     * @param stream the events
     * @return the counts and checksum of this run
     */
    public RunResult run(WorkloadStream stream) {
        NfaMatcher<BenchEvent> matcher = compiled.newMatcher();
        CountingSink sink = new CountingSink(stream.workload().countsTimeouts());
        IntObjectHashMap<NfaState> states = new IntObjectHashMap<>(stream.workload().keys());
        int[] keys = stream.keys();
        long[] timestamps = stream.timestamps();
        BenchEvent[] events = stream.events();
        boolean periodic = watermarks == Watermarks.EVERY_1000_EVENTS;
        for (int i = 0; i < events.length; i++) {
            int key = keys[i];
            // one hash probe for both the lookup and a first-seen key's insert
            int slot = states.indexOf(key);
            NfaState state;
            if (states.indexExists(slot)) {
                state = states.indexGet(slot);
            } else {
                state = matcher.newState(key);
                states.indexInsert(slot, key, state);
            }
            matcher.process(state, events[i], timestamps[i], sink);
            if (periodic && (i + 1) % WATERMARK_INTERVAL == 0) {
                advanceAll(matcher, states, timestamps[i] - 1, sink);
            }
        }
        advanceAll(matcher, states, Long.MAX_VALUE, sink);
        return sink.result();
    }

    private static void advanceAll(NfaMatcher<BenchEvent> matcher, IntObjectHashMap<NfaState> states, long time,
            CountingSink sink) {
        for (ObjectCursor<NfaState> cursor : states.values()) {
            matcher.advanceTime(cursor.value, time, sink);
        }
    }
}

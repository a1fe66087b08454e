package io.cepheus.benchmarks.workloads;

import com.carrotsearch.hppc.IntObjectHashMap;
import com.carrotsearch.hppc.cursors.ObjectCursor;
import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaState;
import io.cepheus.nfa.internal.CacheHints;
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
 * <p>Read-ahead ({@link #withReadAhead}): with tens of thousands of keys the states do not fit in the CPU cache,
 * and each {@code process} call starts by waiting for its key's state to come from memory, one key after
 * another. With read-ahead the loop takes the events in groups and, before stepping any of them, reads every
 * key's state of the group ({@link CacheHints#touchState}) and then its storage of further partial matches
 * ({@link CacheHints#touchPartialMatches}), so that their misses overlap. These loops keep only an int sum: they
 * store no reference, as the matcher's Javadoc asks. The events are still stepped one by one, in order, through
 * the same step API, so the results are those of the plain loop.
 *
 * <p>Idle release ({@link #withIdleRelease}): by default a key's state, once made, stays in the map to the end. With
 * idle release the loop does what the runtime's CEP operator does with the same public API: an event of a key
 * without a state that a new state would ignore ({@link NfaMatcher#ignoredByNewState}) makes none, and a state left
 * with nothing pending after a step ({@link NfaState#isEmpty}) is removed and given back ({@link NfaMatcher#release})
 * for the next new key to reuse. Only keys with something pending then occupy memory, which on W1 and W4 leaves a
 * fraction of the keys' states to miss the cache. The results are the same: a key with nothing pending has no
 * state that an event could depend on.
 *
 * <p>Each {@link #run} uses a fresh matcher and fresh states; the compiled pattern is reused. A runner belongs to
 * one thread at a time.
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

    /** The group size {@link #withReadAhead} suggests: the one the runtime's operators use. */
    public static final int DEFAULT_READ_AHEAD = 16;

    private final CompiledPattern<BenchEvent> compiled;
    private final Watermarks watermarks;
    private final int readAhead;
    private final boolean releaseIdle;
    /** What the read-ahead loops read, kept so that the reads are not removed as dead code; no meaning. */
    private int readAheadSum;

    /**
     * @param compiled   the compiled pattern of the workload
     * @param watermarks how time is driven
     */
    public WorkloadRunner(CompiledPattern<BenchEvent> compiled, Watermarks watermarks) {
        this(compiled, watermarks, 0, false);
    }

    private WorkloadRunner(CompiledPattern<BenchEvent> compiled, Watermarks watermarks, int readAhead,
            boolean releaseIdle) {
        this.compiled = Objects.requireNonNull(compiled, "compiled");
        this.watermarks = Objects.requireNonNull(watermarks, "watermarks");
        this.readAhead = readAhead;
        this.releaseIdle = releaseIdle;
    }

    /**
     * @param events the events per group whose key states are read before the group is stepped; 0 for none
     * @return a runner like this one that reads ahead (see the class comment)
     * @throws IllegalArgumentException if {@code events} is negative
     */
    public WorkloadRunner withReadAhead(int events) {
        if (events < 0) {
            throw new IllegalArgumentException("read-ahead must be 0 (none) or a number of events, got " + events);
        }
        return new WorkloadRunner(compiled, watermarks, events, releaseIdle);
    }

    /** @return the events per read-ahead group, 0 if the runner does not read ahead */
    public int readAhead() {
        return readAhead;
    }

    /** @return a runner like this one that keeps states only for keys with something pending (see the class comment) */
    public WorkloadRunner withIdleRelease() {
        return new WorkloadRunner(compiled, watermarks, readAhead, true);
    }

    /** @return whether the runner releases the states of keys with nothing pending */
    public boolean releasesIdle() {
        return releaseIdle;
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
        if (releaseIdle) {
            runReleasingIdle(matcher, states, stream, sink);
        } else if (readAhead == 0) {
            for (int i = 0; i < events.length; i++) {
                matcher.process(stateOf(matcher, states, keys[i]), events[i], timestamps[i], sink);
                if (periodic && (i + 1) % WATERMARK_INTERVAL == 0) {
                    advanceAll(matcher, states, timestamps[i] - 1, sink);
                }
            }
        } else {
            int ignored = 0;
            for (int from = 0; from < events.length; from += readAhead) {
                int to = Math.min(events.length, from + readAhead);
                ignored += readStatesAhead(matcher, states, keys, from, to);
                for (int i = from; i < to; i++) {
                    matcher.process(stateOf(matcher, states, keys[i]), events[i], timestamps[i], sink);
                    if (periodic && (i + 1) % WATERMARK_INTERVAL == 0) {
                        advanceAll(matcher, states, timestamps[i] - 1, sink);
                    }
                }
            }
            readAheadSum += ignored;
        }
        advanceAll(matcher, states, Long.MAX_VALUE, sink);
        return sink.result();
    }

    /** {@link #run}'s loop with idle release, with or without read-ahead. */
    private void runReleasingIdle(NfaMatcher<BenchEvent> matcher, IntObjectHashMap<NfaState> states,
            WorkloadStream stream, CountingSink sink) {
        int[] keys = stream.keys();
        long[] timestamps = stream.timestamps();
        BenchEvent[] events = stream.events();
        boolean periodic = watermarks == Watermarks.EVERY_1000_EVENTS;
        int group = readAhead == 0 ? events.length : readAhead;
        int ignored = 0;
        for (int from = 0; from < events.length; from += group) {
            int to = Math.min(events.length, from + group);
            if (readAhead != 0) {
                ignored += readStatesAhead(matcher, states, keys, from, to);
            }
            for (int i = from; i < to; i++) {
                stepReleasingIdle(matcher, states, keys[i], events[i], timestamps[i], sink);
                if (periodic && (i + 1) % WATERMARK_INTERVAL == 0) {
                    advanceAll(matcher, states, timestamps[i] - 1, sink);
                }
            }
        }
        readAheadSum += ignored;
    }

    /**
     * One event with idle release: a key without a state gets one only if the event would change it, and a state
     * left with nothing pending is removed and given back to the matcher.
     *
     * @param matcher   the matcher
     * @param states    the keys' states
     * @param key       the event's key
     * @param event     the event
     * @param timestamp its time
     * @param sink      receives matches and timeouts
     */
    public static void stepReleasingIdle(NfaMatcher<BenchEvent> matcher, IntObjectHashMap<NfaState> states, int key,
            BenchEvent event, long timestamp, CountingSink sink) {
        int slot = states.indexOf(key);
        NfaState state;
        if (states.indexExists(slot)) {
            state = states.indexGet(slot);
        } else if (matcher.ignoredByNewState(event)) {
            return;
        } else {
            state = matcher.newState(key);
            states.indexInsert(slot, key, state);
        }
        matcher.process(state, event, timestamp, sink);
        if (state.isEmpty()) {
            states.remove(key);
            matcher.release(state);
        }
    }

    /** The key's state, made on its first event: one hash probe for both the lookup and the insert. */
    private static NfaState stateOf(NfaMatcher<BenchEvent> matcher, IntObjectHashMap<NfaState> states, int key) {
        int slot = states.indexOf(key);
        if (states.indexExists(slot)) {
            return states.indexGet(slot);
        }
        NfaState state = matcher.newState(key);
        states.indexInsert(slot, key, state);
        return state;
    }

    /**
     * Reads the states of the keys of events {@code from} to {@code to}, one level per loop, so that their misses
     * overlap; keys not seen yet have no state to read.
     *
     * @return a value of no meaning, returned only so that the reads cannot be optimised away
     */
    private static int readStatesAhead(NfaMatcher<BenchEvent> matcher, IntObjectHashMap<NfaState> states,
            int[] keys, int from, int to) {
        int sum = 0;
        for (int i = from; i < to; i++) {
            int slot = states.indexOf(keys[i]);
            if (slot >= 0) {
                sum += CacheHints.touchState(states.indexGet(slot));
            }
        }
        for (int i = from; i < to; i++) {
            int slot = states.indexOf(keys[i]);
            if (slot >= 0) {
                sum += CacheHints.touchPartialMatches(states.indexGet(slot));
            }
        }
        return sum;
    }

    private static void advanceAll(NfaMatcher<BenchEvent> matcher, IntObjectHashMap<NfaState> states, long time,
            CountingSink sink) {
        for (ObjectCursor<NfaState> cursor : states.values()) {
            matcher.advanceTime(cursor.value, time, sink);
        }
    }
}

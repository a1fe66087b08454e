package io.cepheus.nfa;

import io.cepheus.nfa.internal.NfaEngine;
import io.cepheus.nfa.internal.Program;

/**
 * Runs a compiled pattern over many keys, one event at a time. Each key has its own {@link NfaState}; all
 * keys of one matcher share one buffer, in which every event is stored once however many partial matches
 * hold it.
 *
 * <p><b>Threading:</b> not thread-safe. A matcher and the states it created belong to one thread (a shard
 * worker, or the caller's thread in tests). Use one matcher per thread.
 *
 * <p><b>Time:</b> {@link #process} takes events of one key in event-time order (equal timestamps in
 * arrival order); sorting and late-data handling belong to the caller (the runtime's reorder buffer).
 * Before it processes an event at time {@code t} the matcher advances the key's time to {@code t}, which
 * times out partial matches whose window has closed. {@link #advanceTime} does the same for a watermark
 * without an event.
 *
 * @param <T> the event type
 */
public final class NfaMatcher<T> {

    private final CompiledPattern<T> pattern;
    private final NfaEngine<T> engine;

    NfaMatcher(CompiledPattern<T> pattern, Program<T> program, NfaOptions options) {
        this.pattern = pattern;
        this.engine = new NfaEngine<>(program, options.maxPartialMatchesPerKey(), options.bufferEntryBound(),
                options.overflowPolicy() == OverflowPolicy.FAIL, options.processingTime(), options.stageCounters(),
                Match::wrap);
    }

    /** @return the compiled pattern this matcher runs */
    public CompiledPattern<T> pattern() {
        return pattern;
    }

    /**
     * @param key the key, kept for error messages (may be null)
     * @return a fresh, empty state for one key
     */
    public NfaState newState(Object key) {
        return engine.newState(key);
    }

    /**
     * Writes a key's matching state (partial and held matches, and the events and buffer entries they reach,
     * each once) for a snapshot. Read it back with {@link #readState} on a matcher of the same pattern.
     *
     * @param state the key's state
     * @param codec writes the events
     * @param out   where to write
     * @throws java.io.IOException if writing fails
     */
    public void writeState(NfaState state, EventCodec<T> codec, java.io.DataOutput out) throws java.io.IOException {
        engine.writeState(state, codec, out);
    }

    /**
     * Restores a key's state written by {@link #writeState}; matching then goes on exactly as it would have.
     *
     * @param key   the key (for messages)
     * @param codec reads the events
     * @param in    where to read
     * @return the restored state, owned by this matcher
     * @throws java.io.IOException if reading fails, the format version is not supported, the snapshot belongs
     *                             to a pattern of another structure ({@link CompiledPattern#structureFingerprint()};
     *                             conditions cannot be compared), or the data is corrupt (nothing is left behind
     *                             then)
     */
    public NfaState readState(Object key, EventCodec<T> codec, java.io.DataInput in) throws java.io.IOException {
        return engine.readState(key, codec, in);
    }

    /**
     * Gives back the state of a key that is done ({@link NfaState#isEmpty()}), so that {@link #newState} can
     * reuse it instead of allocating: with many short-lived keys this saves an allocation per key. The state
     * must not be used afterwards (doing so throws {@link IllegalStateException}).
     *
     * @param state an empty state created by this matcher
     * @throws IllegalArgumentException if the state is not empty or belongs to another matcher
     */
    public void release(NfaState state) {
        engine.release(state);
    }

    /**
     * Whether processing {@code event} on a new state (a key with no partial matches yet) would change nothing:
     * start no partial match, complete none, emit nothing. A caller that keeps no state for idle keys, as the
     * runtime does, can then skip making one for this event.
     *
     * <p>A true answer is exact. The answer is false whenever the pattern's first stage (or a stage reached from
     * it without taking an event, past optional stages) has an iterative condition, since that needs a partial
     * match to evaluate; and when a condition throws, so that {@link #process} evaluates it again and reports it
     * as usual. The simple conditions evaluated here are not evaluated again by a {@link #process} call for the
     * same event instance that follows directly (on any key), so each still runs once per event.
     *
     * @param event the event, not null
     * @return true if a new state would ignore the event
     * @throws NullPointerException if the event is null
     */
    public boolean ignoredByNewState(T event) {
        return engine.ignoredByNewState(event);
    }

    /**
     * Matches one event of the key.
     *
     * @param state     the key's state, created by this matcher
     * @param event     the event, not null
     * @param timestamp its event time, not before the key's {@link NfaState#currentTime()}
     * @param sink      receives timeouts and matches this step produces
     * @throws NullPointerException        if the event is null
     * @throws IllegalArgumentException    if the timestamp goes back in time for this key
     * @throws ConditionException          if a condition throws (the key's state is left unchanged)
     * @throws PartialMatchLimitException  under {@link OverflowPolicy#FAIL} when the bound is hit
     * @throws SkipStrategyException       under a skip strategy with {@code throwExceptionOnMiss()}, when a match
     *                                     to be emitted lacks the target stage or its target is the match's
     *                                     first event (as Flink's "Could not skip to first element of a
     *                                     match"): that match is dropped, the step and the other matches are
     *                                     completed first, and the key's state stays consistent
     */
    public void process(NfaState state, T event, long timestamp, MatchSink<T> sink) {
        engine.process(state, event, timestamp, sink);
    }

    /**
     * Describes a key's open partial matches, in the order a step visits them (the array order of Flink's queue of
     * partial matches, a heap by start): the state each waits in, the events it took, when it times out. For
     * inspection: it copies the events out of the shared buffer.
     *
     * @param state the key's state, created by this matcher
     * @return the partial matches, empty if none
     */
    public java.util.List<PartialMatch<T>> partialMatches(NfaState state) {
        return engine.partialMatches(state);
    }

    /**
     * Traces a key, or stops tracing it: from now on, each step, advance and discard of a state created for this key
     * (by {@link #newState}, with a key {@code equals} to it) reports to {@code sink} what happened to the key's
     * partial matches ({@link io.cepheus.nfa.trace.TraceEntry}): the events it saw, the partial matches each
     * started, extended or completed, and why each that ended without a match ended. Partial matches the key already
     * has are numbered as they are first seen. A step that fails (a condition throws, a bound refuses it) reports
     * nothing but its event, since it changes nothing.
     *
     * <p>Untraced keys do not pay for it: each key operation tests a flag of the key's state, which the matcher sets
     * when it creates a state for a traced key. A state the key has already is not found by this method: pass it
     * to {@link #trace(Object, NfaState, io.cepheus.nfa.trace.TraceSink)}.
     *
     * @param key  the key
     * @param sink where its trace goes, on this matcher's thread; null to stop tracing the key
     */
    public void trace(Object key, io.cepheus.nfa.trace.TraceSink sink) {
        engine.trace(key, null, sink);
    }

    /**
     * As {@link #trace(Object, io.cepheus.nfa.trace.TraceSink)}, for a key that may already have a state: the
     * matcher finds a key's states only when it creates them, so the state the key has now is passed in.
     *
     * @param key     the key
     * @param current the state the key has now, created by this matcher; null if it has none
     * @param sink    where its trace goes, on this matcher's thread; null to stop tracing the key
     */
    public void trace(Object key, NfaState current, io.cepheus.nfa.trace.TraceSink sink) {
        engine.trace(key, current, sink);
    }

    /**
     * Drops every partial and held match of a key at once, without timing them out or emitting them (a rule
     * version whose partial matches are discarded), so that the state is empty and may be {@link #release released}.
     *
     * @param state the key's state, created by this matcher
     * @return how many partial and held matches were dropped
     */
    public int discard(NfaState state) {
        return engine.discard(state);
    }

    /**
     * Matches one event of the key against its live partial matches only: the event extends them (and advances the
     * key's time) as {@link #process} does, but no new partial match begins with it. This is how a pattern version
     * that was replaced drains: what it had started runs to completion or timeout, and new events start only its
     * successor.
     *
     * @param state     the key's state, created by this matcher
     * @param event     the event, not null
     * @param timestamp its event time, not before the key's {@link NfaState#currentTime()}
     * @param sink      receives timeouts and matches this step produces
     * @throws ConditionException         as {@link #process}
     * @throws PartialMatchLimitException as {@link #process}
     * @throws SkipStrategyException      as {@link #process}
     */
    public void processWithoutStarting(NfaState state, T event, long timestamp, MatchSink<T> sink) {
        engine.process(state, event, timestamp, sink, false);
    }

    /**
     * Advances the key's time (a watermark): partial matches whose window closed time out, held matches they
     * blocked are released, trailing {@code notFollowedBy} matches complete. Times before the key's current
     * time are ignored.
     *
     * @param state the key's state
     * @param time  the new time
     * @param sink  receives matches and timeouts
     * @throws SkipStrategyException under a skip strategy with {@code throwExceptionOnMiss()}, as for
     *                               {@link #process}; the advance is completed first
     */
    public void advanceTime(NfaState state, long time, MatchSink<T> sink) {
        engine.advanceTime(state, time, sink);
    }

    /** @return events currently held in the shared buffer, over all keys of this matcher */
    public int bufferedEvents() {
        return engine.bufferedEvents();
    }

    /** @return shared-buffer entries (stage, event, predecessor) currently live, over all keys */
    public int bufferedEntries() {
        return engine.bufferedEntries();
    }

    /** @return live partial matches over all keys of this matcher */
    public long livePartialMatches() {
        return engine.livePartialMatches();
    }

    /**
     * @return partial matches, and newly completed matches a skip strategy would have held, dropped so far
     *     because a key hit its bound ({@link OverflowPolicy#REJECT_NEW})
     */
    public long rejectedPartialMatches() {
        return engine.rejectedPartialMatches();
    }

    /**
     * @return partial matches begun so far over all keys (a match of one event is one begun and completed); counted
     *     with the stage counters ({@link NfaOptions#withStageCounters}), 0 without
     */
    public long partialMatchesStarted() {
        return engine.partialMatchesStarted();
    }

    /** @return partial matches an after-match skip strategy discarded so far */
    public long partialMatchesPruned() {
        return engine.partialMatchesPruned();
    }

    /**
     * Counts what each stage saw over all keys of this matcher: where partial matches stop. Only with
     * {@link NfaOptions#withStageCounters}: counting costs an increment per partial match and event.
     *
     * @return one entry per stage, in pattern order; empty if the options do not count
     */
    public java.util.List<StageCounters> stageCounters() {
        return engine.stageCounters();
    }

    /** @return matches emitted so far */
    public long matchesEmitted() {
        return engine.matchesEmitted();
    }

    /** @return timed-out partial matches emitted so far */
    public long timeoutsEmitted() {
        return engine.timeoutsEmitted();
    }
}

package io.cepheus.nfa;

import io.cepheus.nfa.internal.DiagramWriter;
import io.cepheus.nfa.internal.Program;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Pattern;
import java.util.List;

/**
 * A pattern compiled into an NFA. Immutable and thread-safe: compile once, then create one
 * {@link NfaMatcher} per thread (per shard) with {@link #newMatcher()}.
 *
 * @param <T> the event type
 */
public final class CompiledPattern<T> {

    private final Pattern<T> pattern;
    private final Program<T> program;

    CompiledPattern(Pattern<T> pattern, Program<T> program) {
        this.pattern = pattern;
        this.program = program;
    }

    /** @return the pattern this was compiled from */
    public Pattern<T> pattern() {
        return pattern;
    }

    /** @return every stage name, in pattern order (groups flattened) */
    public List<String> stageNames() {
        return program.stageNames();
    }

    /** @return the whole-pattern window in milliseconds (the smallest {@code within}), or 0 if none */
    public long windowMillis() {
        return program.window();
    }

    /** @return the after-match skip strategy */
    public AfterMatchSkipStrategy skipStrategy() {
        return program.skipStrategy();
    }

    /**
     * What an event must meet to begin a partial match, for an engine that indexes many patterns by it: one list per
     * way the pattern can begin (its first stage, or a later one after optional stages), holding conditions that
     * must all be true to begin that way. An event meeting none of the ways begins nothing; a way whose list is
     * empty may begin with any event. The conditions are the stages' own (an {@link
     * io.cepheus.pattern.IndexableCondition} states what it requires of the event's fields).
     *
     * @return the ways to begin, each with its required conditions
     */
    public List<List<Condition<T>>> startConditions() {
        return program.startWays();
    }

    /**
     * What an event must meet to change a partial match that waits past the first stage, for an engine that hands
     * an event only to the patterns it can affect: one list per way an event can be taken there, holding
     * conditions that must all be true. An event meeting none of the ways leaves the waiting partial matches as
     * they are (only time passes for them, as at a watermark).
     *
     * @return the ways, or empty if the pattern cannot say (a strict contiguity ends a partial match on any event
     *         it does not take; an optional or looping stage may move on without taking one; a condition names
     *         nothing; a skip strategy holds matches back)
     */
    public java.util.Optional<List<List<Condition<T>>>> waitingConditions() {
        return java.util.Optional.ofNullable(program.waitWays());
    }

    /** @return the number of NFA states */
    public int stateCount() {
        return program.stateCount();
    }

    /**
     * Identifies the pattern's structure, as snapshots check it: stage names, states, transitions (with the
     * shape of their conditions), quantifiers, contiguities, windows and the skip strategy. The same pattern
     * gives the same value in every JVM; a state written under one fingerprint is refused under another.
     *
     * <p>The conditions themselves are not compared: a lambda has no identity or content that is stable
     * across JVMs. Two patterns that differ only in what a condition tests have the same fingerprint, and
     * restoring one's state into the other is the caller's responsibility.
     *
     * @return a 64-bit hash of the structure
     */
    public long structureFingerprint() {
        return program.fingerprint();
    }

    /** @return a matcher with {@link NfaOptions#defaults()} */
    public NfaMatcher<T> newMatcher() {
        return newMatcher(NfaOptions.defaults());
    }

    /**
     * @param options bound on partial matches, overflow policy, processing-time clock
     * @return a new matcher, to be used by one thread
     */
    public NfaMatcher<T> newMatcher(NfaOptions options) {
        return new NfaMatcher<>(this, program, options);
    }

    /** @return the NFA as a Graphviz DOT digraph: states, TAKE / IGNORE / PROCEED edges and their conditions */
    public String toDot() {
        return DiagramWriter.dot(program);
    }

    /** @return the NFA as a Mermaid flowchart, ready to paste into Markdown */
    public String toMermaid() {
        return DiagramWriter.mermaid(program);
    }

    @Override
    public String toString() {
        return "CompiledPattern[" + program.stateCount() + " states, stages " + stageNames() + ", window "
                + windowMillis() + " ms, " + skipStrategy().kind() + "]";
    }
}

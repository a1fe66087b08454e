package io.cepheus.nfa;

/**
 * One open partial match of a key, as {@link NfaMatcher#partialMatches} describes it.
 *
 * @param state     the NFA state it waits in, named as in {@link CompiledPattern#toMermaid()} (a stage's name, or a
 *                  name derived from it for a stage's inner states)
 * @param events    the events it has taken so far, by stage
 * @param startTime the time of its first event
 * @param deadline  when it times out (its window, or its stage's gap, closes), {@code Long.MAX_VALUE} if never
 * @param <T>       the event type
 */
public record PartialMatch<T>(String state, Match<T> events, long startTime, long deadline) {
}

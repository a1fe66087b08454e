package io.cepheus.nfa.trace;

/**
 * Receives the trace of one key, on the thread that runs its matcher, in the order things happened.
 */
@FunctionalInterface
public interface TraceSink {
    /**
     * @param entry what happened
     */
    void add(TraceEntry entry);
}

package io.cepheus.nfa.internal;

import io.cepheus.nfa.NfaState;

/**
 * Memory hints for a caller that steps many keys in a batch (the runtime's CEP operator), outside the NFA's public
 * API: exported to the runtime only.
 *
 * <p>With many keys the key states do not fit in the CPU cache and each step starts with a miss; reading the states
 * of the next several keys in one loop first lets their misses overlap instead of being paid one after another.
 * Java has no prefetch instruction, so a hint is an ordinary read whose result the caller sums and keeps (a value
 * of no meaning: a read whose result is never used may be removed by the compiler). Callers should keep only
 * primitives from such a loop: storing the states into an array or field of a long-lived object makes the garbage
 * collector's write barrier (G1's post barrier) run a memory fence, which waits for every outstanding miss and
 * serializes them again.
 *
 * <p>Stateless; reads only, so any thread that owns the states may call it.
 */
public final class CacheHints {

    private CacheHints() {
    }

    /**
     * Reads the key state's own fields, which a step reads first; changes nothing.
     *
     * @param state a key's state (one not made by an NFA matcher yields 0)
     * @return a value of no meaning, to be summed
     */
    public static int touchState(NfaState state) {
        return state instanceof KeyState st ? st.touchFields() : 0;
    }

    /**
     * The second level of {@link #touchState}: reads the first cache line of the state's storage of further partial
     * matches, when it has more than one. Useful once the state itself has been read (after a {@link #touchState}
     * loop over the same keys), as that is where the reference to the storage is.
     *
     * @param state a key's state (one not made by an NFA matcher yields 0)
     * @return a value of no meaning, to be summed
     */
    public static int touchPartialMatches(NfaState state) {
        return state instanceof KeyState st ? st.touchMore() : 0;
    }
}

/**
 * Compiles Cepheus patterns into NFAs over a shared buffer and runs them one key and one event at a time.
 * Pure and single-threaded: no threads, no I/O, no clocks except the injected one.
 */
module io.cepheus.nfa {
    requires transitive io.cepheus.pattern;
    exports io.cepheus.nfa;
    exports io.cepheus.nfa.trace;
    // memory hints for the runtime's batched steps (CacheHints); not part of the NFA's API
    exports io.cepheus.nfa.internal to io.cepheus.runtime;
}

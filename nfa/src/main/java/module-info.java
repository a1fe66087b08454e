/**
 * Compiles Cepheus patterns into NFAs over a shared buffer and runs them one key and one event at a time.
 * Pure and single-threaded: no threads, no I/O, no clocks except the injected one.
 */
module io.cepheus.nfa {
    requires transitive io.cepheus.pattern;
    exports io.cepheus.nfa;
}

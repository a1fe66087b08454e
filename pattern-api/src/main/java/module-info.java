/**
 * The Cepheus pattern builder: stages, contiguity, quantifiers, conditions, windows and
 * after-match skip strategies. Dependency-free; compiled by {@code io.cepheus.nfa}.
 */
module io.cepheus.pattern {
    exports io.cepheus.pattern;
    // the condition combinators are implementation detail; only the compiler may look inside
    exports io.cepheus.pattern.internal to io.cepheus.nfa;
}

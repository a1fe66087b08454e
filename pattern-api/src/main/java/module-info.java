/**
 * The Cepheus pattern builder: stages, contiguity, quantifiers, conditions, windows and
 * after-match skip strategies. Dependency-free; compiled by {@code io.cepheus.nfa}.
 */
module io.cepheus.pattern {
    exports io.cepheus.pattern;
    // the condition combinators and the whole-pattern rules are implementation detail; only the NFA compiler and the
    // rule compiler (which reads patterns back into rules) may look inside
    exports io.cepheus.pattern.internal to io.cepheus.nfa, io.cepheus.rules;
}

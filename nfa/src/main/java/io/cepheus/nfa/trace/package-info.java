/**
 * What a traced key's partial matches did, event by event: the entries a matcher reports to a {@link
 * io.cepheus.nfa.trace.TraceSink} for a key that is traced ({@link io.cepheus.nfa.NfaMatcher#trace}), so that "why
 * did my pattern not match?" has an answer: which partial matches an event started, extended or completed, and for
 * each that ended without a match, why.
 */
package io.cepheus.nfa.trace;

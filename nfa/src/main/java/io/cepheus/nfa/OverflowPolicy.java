package io.cepheus.nfa;

/** What an {@link NfaMatcher} does when a key would hold more live partial matches than allowed. */
public enum OverflowPolicy {
    /** Keep the partial matches already held, drop the new ones beyond the bound and count them. */
    REJECT_NEW,
    /** Throw {@link PartialMatchLimitException}; the key's state is left as it was before the event. */
    FAIL
}

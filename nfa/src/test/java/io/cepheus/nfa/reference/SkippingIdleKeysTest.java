package io.cepheus.nfa.reference;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Property test of what the runtime does with idle keys: it keeps no state for a key with nothing open (it frees
 * a state once {@link io.cepheus.nfa.NfaState#isEmpty()}), and it makes none for an event that
 * {@link io.cepheus.nfa.NfaMatcher#ignoredByNewState} says a new state would ignore. On random patterns and
 * streams, a run that does both ({@link EngineRun#withIdleKeysFreed}) emits exactly what a run on one state kept
 * throughout emits ({@link EngineRun#of}): the same matches, each while the same event is processed, and the same
 * number of timeouts.
 *
 * <p>Reproducible: {@code -Dcepheus.seed=...}, printed on failure with the example as a conformance case.
 */
class SkippingIdleKeysTest {

    private static final long DEFAULT_SEED = 0x1D1E_CE9EL;
    private static final int EXAMPLES = Integer.getInteger("cepheus.examples", 4000);

    @Test
    void skippingIgnoredEventsOnKeysWithoutStateChangesNoOutput() {
        long seed = io.cepheus.nfa.testing.PropertySeeds.seed(DEFAULT_SEED);
        AtomicLong asked = new AtomicLong();
        AtomicLong skipped = new AtomicLong();
        io.cepheus.nfa.testing.PropertySeeds.reportingSeed(seed, "nfa", "SkippingIdleKeysTest",
                () -> qt().withFixedSeed(seed).withExamples(EXAMPLES).forAll(ScenarioGenerators.scenarios())
                        .checkAssert(s -> assertSameOutput(s, asked, skipped)));
        // not a vacuous pass: a fair share of the events that find no state are skipped
        assertTrue(skipped.get() > asked.get() / 5, skipped + " of " + asked + " events without state skipped");
    }

    private static void assertSameOutput(Scenario s, AtomicLong asked, AtomicLong skipped) {
        EngineRun kept = EngineRun.of(s);
        EngineRun freed = EngineRun.withIdleKeysFreed(s, asked, skipped);
        if (!kept.matches().equals(freed.matches()) || !kept.emittedAt().equals(freed.emittedAt())
                || kept.timeouts() != freed.timeouts()) {
            throw new AssertionError("skipping idle keys changed the output of\n" + s
                    + "\none state kept: " + kept.matches() + " emitted at " + kept.emittedAt() + ", "
                    + kept.timeouts() + " timeouts"
                    + "\nidle keys skipped: " + freed.matches() + " emitted at " + freed.emittedAt() + ", "
                    + freed.timeouts() + " timeouts");
        }
    }
}

package io.cepheus.runtime.agent;

import static io.cepheus.runtime.agent.BackoffState.Step.PARK;
import static io.cepheus.runtime.agent.BackoffState.Step.SPIN;
import static io.cepheus.runtime.agent.BackoffState.Step.YIELD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The backoff sequence as pure logic: no spinning, yielding or parking happens here. */
class BackoffStateTest {

    private static final long SEED = Long.getLong("cepheus.seed", 0xBAC0FFL);

    /** Steps as text: "spin", "yield", or "park:N" with N the park length. */
    private static List<String> steps(BackoffState state, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            BackoffState.Step step = state.next();
            out.add(step == PARK ? "park:" + state.parkNanos() : step.name().toLowerCase());
        }
        return out;
    }

    @Test
    void spinsThenYieldsThenParksDoublingUpToTheCap() {
        BackoffState state = new BackoffState(2, 3, 10, 45);
        assertEquals(List.of("spin", "spin", "yield", "yield", "yield",
                "park:10", "park:20", "park:40", "park:45", "park:45"), steps(state, 10));
    }

    @Test
    void resetStartsTheSequenceAgain() {
        BackoffState state = new BackoffState(1, 1, 5, 100);
        steps(state, 6);
        state.reset();
        assertEquals(0, state.parkNanos());
        assertEquals(List.of("spin", "yield", "park:5", "park:10"), steps(state, 4));
    }

    @Test
    void withoutSpinsOrYieldsItParksAtOnce() {
        BackoffState state = new BackoffState(0, 0, 7, 7);
        assertEquals(List.of("park:7", "park:7"), steps(state, 2));
    }

    @Test
    void doublingNearTheLargestLongSaturatesAtTheCapInsteadOfOverflowing() {
        long min = Long.MAX_VALUE / 2 + 1;
        BackoffState state = new BackoffState(0, 0, min, Long.MAX_VALUE);
        assertEquals(List.of("park:" + min, "park:" + Long.MAX_VALUE, "park:" + Long.MAX_VALUE), steps(state, 3));
    }

    @Test
    void refusesBoundsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> new BackoffState(-1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BackoffState(0, -1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BackoffState(0, 0, 0, 1));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new BackoffState(0, 0, 10, 9));
        assertEquals("maxParkNanos (9) must be >= minParkNanos (10)", e.getMessage());
    }

    /** Against a closed-form model: step i is a spin, a yield, or the k-th park of min * 2^k capped at max. */
    @Test
    void followsTheClosedFormForAnyBounds() {
        try {
            qt().withFixedSeed(SEED).withExamples(500)
                    .forAll(integers().between(0, 20), integers().between(0, 20),
                            longs().between(1, 1_000_000L), longs().between(0, 1_000_000_000_000L))
                    .checkAssert((spins, yields, min, extra) -> {
                        long max = min + extra;
                        BackoffState state = new BackoffState(spins, yields, min, max);
                        for (int round = 0; round < 2; round++) {
                            for (int i = 0; i < spins + yields + 70; i++) {
                                BackoffState.Step step = state.next();
                                if (i < spins) {
                                    assertEquals(SPIN, step, "step " + i);
                                } else if (i < spins + yields) {
                                    assertEquals(YIELD, step, "step " + i);
                                } else {
                                    assertEquals(PARK, step, "step " + i);
                                    int k = i - spins - yields;
                                    long expected = BigInteger.valueOf(min).shiftLeft(k)
                                            .min(BigInteger.valueOf(max)).longValueExact();
                                    assertEquals(expected, state.parkNanos(), "park " + k);
                                }
                            }
                            state.reset();
                        }
                    });
        } catch (AssertionError e) {
            throw new AssertionError("failed with cepheus.seed=" + SEED + ": " + e.getMessage(), e);
        }
    }
}

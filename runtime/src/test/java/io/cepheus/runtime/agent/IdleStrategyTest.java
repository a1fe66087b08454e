package io.cepheus.runtime.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class IdleStrategyTest {

    @Test
    void everyFactoryReturnsANewInstanceBecauseStrategiesAreOwnedByOneThread() {
        List<Supplier<IdleStrategy>> factories = List.of(IdleStrategy::busySpin, IdleStrategy::yielding,
                IdleStrategy::noOp, () -> IdleStrategy.backoff(1, 1, 1, 1));
        for (Supplier<IdleStrategy> factory : factories) {
            assertNotSame(factory.get(), factory.get());
        }
    }

    @Test
    void backoffInstancesKeepSeparateState() {
        BackoffIdleStrategy advanced = (BackoffIdleStrategy) IdleStrategy.backoff(0, 0, 1, 1_000);
        BackoffIdleStrategy fresh = (BackoffIdleStrategy) IdleStrategy.backoff(0, 0, 1, 1_000);
        advanced.idle(0);
        advanced.idle(0);
        assertEquals(2, advanced.state().parkNanos());
        assertEquals(0, fresh.state().parkNanos());
    }

    @Test
    void backoffAdvancesOnlyWhenIdleAndResetsOnWork() {
        // one spin, one yield, then parks of 1 ns: real but negligible, nothing here depends on their length
        BackoffIdleStrategy strategy = (BackoffIdleStrategy) IdleStrategy.backoff(1, 1, 1, 4);
        strategy.idle(0);
        strategy.idle(0);
        assertEquals(0, strategy.state().parkNanos(), "still before the park phase");
        strategy.idle(0);
        strategy.idle(0);
        assertEquals(2, strategy.state().parkNanos(), "second park doubled");

        strategy.idle(3);
        assertEquals(0, strategy.state().parkNanos(), "work resets the backoff");
        assertEquals(BackoffState.Step.SPIN, strategy.state().next(), "and the next idle step spins again");
    }

    @Test
    void resetForgetsTheBackoff() {
        BackoffIdleStrategy strategy = (BackoffIdleStrategy) IdleStrategy.backoff(0, 0, 1, 1);
        strategy.idle(0);
        assertEquals(1, strategy.state().parkNanos());
        strategy.reset();
        assertEquals(0, strategy.state().parkNanos());
    }

    @Test
    void backoffRefusesBoundsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> IdleStrategy.backoff(-1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> IdleStrategy.backoff(0, 0, 5, 4));
    }
}

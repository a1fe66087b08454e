package io.cepheus.runtime.agent;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin, then yield, then park with exponential backoff; the order and lengths come from {@link BackoffState}.
 * A park ends early on {@link LockSupport#unpark(Thread)}, which a worker thread's close uses so a parked
 * worker notices a close request at once.
 *
 * <p><b>Threading:</b> owned by the one thread that idles with it; not thread-safe.
 */
final class BackoffIdleStrategy implements IdleStrategy {

    private final BackoffState state;

    BackoffIdleStrategy(BackoffState state) {
        this.state = state;
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            state.reset();
            return;
        }
        switch (state.next()) {
            case SPIN:
                Thread.onSpinWait();
                break;
            case YIELD:
                Thread.yield();
                break;
            case PARK:
                LockSupport.parkNanos(state.parkNanos());
                break;
            default:
                throw new AssertionError("unknown backoff step");
        }
    }

    @Override
    public void reset() {
        state.reset();
    }

    /** For tests in this package: the state machine, to see where the backoff stands. */
    BackoffState state() {
        return state;
    }

    @Override
    public String toString() {
        return "IdleStrategy." + state;
    }
}

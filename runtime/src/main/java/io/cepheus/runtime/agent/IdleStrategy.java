package io.cepheus.runtime.agent;


/**
 * What an agent's thread does after a duty cycle: nothing when there was work, and something progressively
 * cheaper for the machine (spin, yield, park) while there is none.
 *
 * <p><b>Threading:</b> an instance is stateful (it remembers how long it has been idle) and belongs to one thread;
 * never share one between threads. Every factory here returns a new instance, so each caller gets its own.
 */
public interface IdleStrategy {

    /**
     * Called after each duty cycle with the work it did. Does nothing (and resets the backoff) when
     * {@code workCount > 0}; otherwise idles for one step.
     *
     * @param workCount what the duty cycle returned
     */
    void idle(int workCount);

    /** Forgets any backoff so far: the next idle step is the cheapest one again. */
    void reset();

    /**
     * @return a strategy that busy-spins with {@link Thread#onSpinWait()}: lowest latency, burns a core
     */
    static IdleStrategy busySpin() {
        return new BusySpinIdleStrategy();
    }

    /**
     * @return a strategy that calls {@link Thread#yield()} when idle: low latency, lets other threads run
     */
    static IdleStrategy yielding() {
        return new YieldingIdleStrategy();
    }

    /**
     * A strategy that, while idle, first spins {@code maxSpins} times, then yields {@code maxYields} times, then
     * parks with {@link java.util.concurrent.locks.LockSupport#parkNanos(long)} for {@code minParkNanos},
     * doubling each time up to {@code maxParkNanos}. Any work resets it to spinning.
     *
     * @param maxSpins     idle steps spent spinning, {@code >= 0}
     * @param maxYields    idle steps spent yielding after that, {@code >= 0}
     * @param minParkNanos the first park, {@code >= 1}
     * @param maxParkNanos the longest park, {@code >= minParkNanos}
     * @return the strategy
     * @throws IllegalArgumentException if a bound is out of range
     */
    static IdleStrategy backoff(int maxSpins, int maxYields, long minParkNanos, long maxParkNanos) {
        return new BackoffIdleStrategy(new BackoffState(maxSpins, maxYields, minParkNanos, maxParkNanos));
    }

    /**
     * @return a strategy that does nothing: for workers driven by their caller (a test harness), or a caller that
     *         idles on its own
     */
    static IdleStrategy noOp() {
        return new NoOpIdleStrategy();
    }
}

package io.cepheus.runtime.agent;

/** Yields the processor while idle. Stateless, but created per owner like every strategy. */
final class YieldingIdleStrategy implements IdleStrategy {

    @Override
    public void idle(int workCount) {
        if (workCount <= 0) {
            Thread.yield();
        }
    }

    @Override
    public void reset() {
        // nothing to forget
    }

    @Override
    public String toString() {
        return "IdleStrategy.yielding()";
    }
}

package io.cepheus.runtime.agent;

/** Spins with {@link Thread#onSpinWait()} while idle. Stateless, but created per owner like every strategy. */
final class BusySpinIdleStrategy implements IdleStrategy {

    @Override
    public void idle(int workCount) {
        if (workCount <= 0) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void reset() {
        // nothing to forget
    }

    @Override
    public String toString() {
        return "IdleStrategy.busySpin()";
    }
}

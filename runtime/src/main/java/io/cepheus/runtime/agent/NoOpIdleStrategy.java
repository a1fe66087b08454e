package io.cepheus.runtime.agent;

/** Does nothing while idle: the caller decides when the next duty cycle runs. */
final class NoOpIdleStrategy implements IdleStrategy {

    @Override
    public void idle(int workCount) {
        // deliberately nothing
    }

    @Override
    public void reset() {
        // nothing to forget
    }

    @Override
    public String toString() {
        return "IdleStrategy.noOp()";
    }
}

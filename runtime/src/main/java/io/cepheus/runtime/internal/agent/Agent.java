package io.cepheus.runtime.internal.agent;

/**
 * A worker written as a duty cycle: the code that owns a shard (or any other single-writer state) and does a
 * bounded amount of work each time it is invoked. The same agent runs on its own thread in production
 * ({@link AgentRunner}) and on the caller's thread in tests ({@link AgentInvoker}).
 *
 * <p><b>Threading contract:</b> every method of an agent is called by one thread - the runner's thread, or the
 * thread that drives the invoker - in the order {@link #onStart()}, {@link #doWork()} any number of times,
 * {@link #onClose()}. An agent therefore needs no synchronisation for its own state; anything it shares with
 * other threads (an inbox, published metrics) must be thread-safe on its own terms.
 */
public interface Agent {

    /**
     * Does one duty cycle: a bounded amount of work (for example, drain up to N records, fire due timers, emit
     * at end of batch) and returns. It must not block or loop forever: the runner needs it to return to check
     * for close requests, and an idle strategy decides what to do between idle cycles.
     *
     * @return how much work was done; 0 means the agent was idle, which lets the idle strategy back off
     */
    int doWork();

    /** Called once, on the agent's thread, before the first {@link #doWork()}. */
    default void onStart() {
    }

    /**
     * Called once, on the agent's thread, after the last {@link #doWork()}: when the agent is closed, stopped
     * by its error handler, or after a failed {@link #onStart()} (so it can release what it acquired).
     */
    default void onClose() {
    }

    /**
     * @return the agent's role, for thread names and error messages (for example {@code "cepheus-shard-3"})
     */
    String roleName();
}

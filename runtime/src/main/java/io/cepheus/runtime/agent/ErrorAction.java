package io.cepheus.runtime.agent;

/** What an {@link ErrorHandler} decides after an agent's {@link Agent#doWork()} threw. */
public enum ErrorAction {
    /** Keep running the agent: the next duty cycle follows as usual. */
    CONTINUE,
    /** Stop the agent: no more duty cycles; {@link Agent#onClose()} is still called. */
    STOP
}

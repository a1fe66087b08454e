package io.cepheus.runtime.agent;


/** What an {@link ErrorHandler} decides after a worker's duty cycle threw. */
public enum ErrorAction {
    /** Keep running the agent: the next duty cycle follows as usual. */
    CONTINUE,
    /** Stop the worker: no more duty cycles; it still closes (releases what it holds). */
    STOP
}

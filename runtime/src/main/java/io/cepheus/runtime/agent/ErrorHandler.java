package io.cepheus.runtime.agent;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * Receives what an agent threw and decides whether the agent keeps running.
 *
 * <p>It is called on the agent's thread (the runner's thread, or the invoker's caller), so it must not block for
 * long. For a failure in {@link Agent#doWork()} its {@link ErrorAction} decides; for a failure in
 * {@link Agent#onStart()} the agent stops whatever it returns (an agent that did not start cannot run); for a
 * failure in {@link Agent#onClose()} the agent is stopping anyway. If the handler itself throws, the agent
 * stops and the handler's exception is attached to the original one as suppressed.
 */
@FunctionalInterface
public interface ErrorHandler {

    /**
     * @param roleName the failing agent's {@link Agent#roleName()}
     * @param error    what it threw
     * @return {@link ErrorAction#CONTINUE} to keep running the agent, {@link ErrorAction#STOP} to stop it
     */
    ErrorAction onError(String roleName, Throwable error);

    /**
     * @return a handler that stops the agent at its first error
     */
    static ErrorHandler alwaysStop() {
        return (roleName, error) -> ErrorAction.STOP;
    }

    /**
     * @param logger where each error is reported (at {@link Level#ERROR}, with its stack trace)
     * @return a handler that logs every error and keeps the agent running
     */
    static ErrorHandler logAndContinue(Logger logger) {
        Objects.requireNonNull(logger, "logger");
        return (roleName, error) -> {
            logger.log(Level.ERROR, "agent '" + roleName + "' failed in its duty cycle; it keeps running", error);
            return ErrorAction.CONTINUE;
        };
    }
}

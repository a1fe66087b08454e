package io.cepheus.runtime.agent;

import java.lang.System.Logger.Level;
import java.lang.System.Logger;
import java.util.Objects;

/**
 * Receives what a worker threw (a shard worker, whose name is {@code cepheus-shard-N}) and decides whether it
 * keeps running; set with {@code CepEngine.Builder.errorHandler}.
 *
 * <p>It is called on the worker's thread (the shard's own thread, or the caller's under a {@code CepTestHarness}),
 * so it must not block for long. For a failure in a duty cycle its {@link ErrorAction} decides; for a failure while
 * the worker starts, the worker stops whatever it returns (a worker that did not start cannot run); for a failure
 * while it closes, it is stopping anyway. If the handler itself throws, the worker stops and the handler's
 * exception is attached to the original one as suppressed.
 */
@FunctionalInterface
public interface ErrorHandler {

    /**
     * @param roleName the failing agent's name ({@code cepheus-shard-N})
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

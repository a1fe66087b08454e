package io.cepheus.runtime.internal.agent;

import io.cepheus.runtime.agent.ErrorAction;
import io.cepheus.runtime.agent.ErrorHandler;

/** How runners and invokers ask an {@link ErrorHandler}: anything but CONTINUE, or a throwing handler, stops. */
final class ErrorDecision {

    private ErrorDecision() {
    }

    static ErrorAction decide(ErrorHandler handler, Agent agent, Throwable error) {
        try {
            return handler.onError(agent.roleName(), error) == ErrorAction.CONTINUE
                    ? ErrorAction.CONTINUE
                    : ErrorAction.STOP;
        } catch (Throwable handlerFailure) {
            error.addSuppressed(handlerFailure);
            return ErrorAction.STOP;
        }
    }
}

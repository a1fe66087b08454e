package io.cepheus.runtime.internal.output;

import io.cepheus.runtime.DeadLetterHandler;
import io.cepheus.runtime.LateEventHandler;
import io.cepheus.runtime.UserCodeException;
import io.cepheus.runtime.internal.shard.UserFailures;

/**
 * Where one shard operator's user-code failures go, the same for patterns, windows and joins: to the stream's
 * dead-letter handler if it has one (and on), or else, as a {@link UserCodeException} naming the function,
 * operator, key and timestamp, to the shard's {@link UserFailures}, which hands it to the engine's error handler
 * at the end of the batch. A throwing dead-letter handler is reported the same way. Nothing is dropped silently.
 *
 * <p>One per shard operator, used on the shard's thread.
 *
 * @param <T> the type of the inputs that can fail (the engine's event type, or a join side)
 */
public final class FailureRoute<T> {

    private final DeadLetterHandler<? super T> deadLetters;
    private final UserFailures failures;
    private final String operator;

    /**
     * @param deadLetters the stream's dead-letter handler, or null for none
     * @param failures    the shard's failure reports
     * @param operator    the operator as messages name it (e.g. {@code "pattern 0"}, {@code "window 1"})
     */
    public FailureRoute(DeadLetterHandler<? super T> deadLetters, UserFailures failures, String operator) {
        this.deadLetters = deadLetters;
        this.failures = failures;
        this.operator = operator;
    }

    /** @return the operator as messages name it */
    public String operator() {
        return operator;
    }

    /**
     * User code threw on an input, which was not applied: the dead-letter handler gets it, or else the error
     * handler.
     *
     * @param function what threw, if {@code error} is not a {@link UserCodeException} already (e.g. "condition")
     */
    public void failedInput(String function, Object key, T input, long timestamp, RuntimeException error) {
        if (deadLetters == null) {
            failures.report(error instanceof UserCodeException u ? u
                    : new UserCodeException(function, operator, key, timestamp, error));
            return;
        }
        try {
            deadLetters.onDeadLetter(key, input, timestamp, error);
        } catch (RuntimeException e) {
            failures.report(new UserCodeException("dead-letter handler", operator, key, timestamp, e));
        }
    }

    /**
     * A handler threw on an output (a match, a timeout, a window result), which was produced and counted: the
     * dead-letter handler's {@link DeadLetterHandler#onFailedOutput} gets it, or else the error handler.
     *
     * @param function the handler that threw (e.g. "match handler")
     */
    public void failedOutput(String function, Object key, Object output, long timestamp, RuntimeException error) {
        UserCodeException failure = new UserCodeException(function, operator, key, timestamp, error);
        if (deadLetters == null) {
            failures.report(failure);
            return;
        }
        try {
            deadLetters.onFailedOutput(key, output, timestamp, failure);
        } catch (UserCodeException rethrown) {
            failures.report(rethrown);
        } catch (RuntimeException e) {
            failures.report(new UserCodeException("dead-letter handler", operator, key, timestamp, e));
        }
    }

    /**
     * Hands a late input to its handler; if that throws, the input is a dead letter of {@code function}.
     *
     * @param handler  the late-data handler, or null for none (the input was counted, nothing else happens)
     * @param function the handler as messages name it (e.g. "late-event handler")
     */
    public <X extends T> void late(LateEventHandler<? super X> handler, String function, Object key, X input,
            long timestamp) {
        if (handler == null) {
            return;
        }
        try {
            handler.onLateEvent(key, input, timestamp);
        } catch (RuntimeException e) {
            failedInput(function, key, input, timestamp, new UserCodeException(function, operator, key, timestamp, e));
        }
    }

    /**
     * A failure that is neither an input's nor an output's (e.g. a skip strategy that throws on a miss): the error
     * handler decides, whatever dead-letter handler the stream has.
     */
    public void failed(String function, Object key, long timestamp, RuntimeException error) {
        failures.report(new UserCodeException(function, operator, key, timestamp, error));
    }
}

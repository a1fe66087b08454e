package io.cepheus.runtime;

import io.cepheus.runtime.internal.shard.UserFailures;

/** Where the joins send an element that user code threw on: shared by the interval and temporal joins. */
final class JoinFailures {

    private JoinFailures() {
    }

    /**
     * Hands the element to the dead-letter handler if there is one, or else reports the failure to the shard
     * (see {@link UserCodeException}); a throwing dead-letter handler is reported too.
     */
    static void deadLetter(DeadLetterHandler<Object> dead, UserFailures failures, String operator, Object key,
            Object element, long timestamp, RuntimeException error) {
        if (dead == null) {
            failures.report(error instanceof UserCodeException u ? u
                    : new UserCodeException("join function", operator, key, timestamp, error));
            return;
        }
        try {
            dead.onDeadLetter(key, element, timestamp, error);
        } catch (RuntimeException e) {
            failures.report(new UserCodeException("dead-letter handler", operator, key, timestamp, e));
        }
    }
}

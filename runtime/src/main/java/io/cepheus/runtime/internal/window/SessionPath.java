package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.timer.KeyDueTimes;

/**
 * What both of {@link SessionWindowOperator}'s paths work with: the operator, the key dictionary, the window
 * function, the due times and the accumulation mode. {@link SingleSessionPath} handles a key with one session,
 * {@link SessionListPath} a key with several.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 *
 * @param <T> the element type
 * @param <R> the result type
 */
abstract class SessionPath<T, R> {

    final SessionWindowOperator<T, R> operator;
    final KeyDictionary keys;
    final IncrementalFunction<T, R> function;
    final KeyDueTimes due;
    final boolean purging;
    final boolean retracting;

    /**
     * @param operator   the operator: watermark, cleanup times, counts, emission, key state
     * @param keys       the shard's key dictionary (the key of a session that fires)
     * @param function   the window's reduce or aggregate
     * @param due        the operator's due times, armed here
     * @param purging    whether a firing empties the session (discarding mode)
     * @param retracting whether a session remembers its result to withdraw it (accumulating-and-retracting mode)
     */
    SessionPath(SessionWindowOperator<T, R> operator, KeyDictionary keys, IncrementalFunction<T, R> function,
            KeyDueTimes due, boolean purging, boolean retracting) {
        this.operator = operator;
        this.keys = keys;
        this.function = function;
        this.due = due;
        this.purging = purging;
        this.retracting = retracting;
    }
}

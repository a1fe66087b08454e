package io.cepheus.runtime;

/**
 * Receives what user code threw on (the dead-letter side output), with the exception: input events that a
 * condition or function threw on ({@link #onDeadLetter}), and outputs that the stream's own handler threw on
 * ({@link #onFailedOutput}). Runs on the worker thread of the key's shard. A stream with a dead-letter handler
 * goes on after such a failure; without one the failure goes to the engine's
 * {@link io.cepheus.runtime.agent.ErrorHandler} as a {@link UserCodeException}.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface DeadLetterHandler<T> {
    /**
     * An input event that user code threw on: a pattern condition, a window's assigner or incremental function,
     * a join's key selector, or the late-event handler; or, under {@code OverflowPolicy.FAIL}, an event that would
     * break its key's bound on partial matches (a {@code PartialMatchLimitException}).
     *
     * @param key       the event's key
     * @param event     the event, which was not applied (the key's state is as before it)
     * @param timestamp its event time
     * @param error     what was thrown
     */
    void onDeadLetter(Object key, T event, long timestamp, RuntimeException error);

    /**
     * An output that the stream's own handler threw on: a match or timed-out partial match ({@code Match}) that
     * the match or timeout handler or the process function threw on. The engine's state is not affected: the
     * output was produced and counted.
     *
     * <p>Default: rethrows {@code error}, so the failure goes to the engine's error handler as if there were no
     * dead-letter handler. Override it to keep such outputs.
     *
     * @param key       the key of the output
     * @param output    the output
     * @param timestamp its record timestamp
     * @param error     what was thrown
     */
    default void onFailedOutput(Object key, Object output, long timestamp, RuntimeException error) {
        throw error;
    }
}

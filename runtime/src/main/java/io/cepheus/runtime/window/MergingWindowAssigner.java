package io.cepheus.runtime.window;

/**
 * An assigner whose windows of one key merge when they overlap or touch ({@link TimeWindow#intersects}) into the
 * smallest window covering them (sessions). Their contents merge, triggers merge their state
 * ({@link Trigger#onMerge}); the trigger must support merging ({@link Trigger#canMerge()}).
 *
 * @param <T> the element type
 */
public interface MergingWindowAssigner<T> extends WindowAssigner<T> {
}

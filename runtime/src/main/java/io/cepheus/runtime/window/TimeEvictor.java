package io.cepheus.runtime.window;

import java.time.Duration;

/**
 * Keeps the elements whose timestamp is within {@code span} of the newest element of the window
 * ({@code ts > max - span}), before the window function (default) or after it.
 *
 * @param <T> the element type
 */
public final class TimeEvictor<T> implements Evictor<T> {

    private final long span;
    private final boolean after;

    private TimeEvictor(long span, boolean after) {
        this.span = span;
        this.after = after;
    }

    /**
     * @param span kept time span
     * @param <T> element type
     * @return evicts before the function
     */
    public static <T> TimeEvictor<T> of(Duration span) {
        return new TimeEvictor<>(span.toMillis(), false);
    }

    /**
     * @param span kept time span
     * @param doEvictAfter evict after the function
     * @param <T> element type
     * @return it
     */
    public static <T> TimeEvictor<T> of(Duration span, boolean doEvictAfter) {
        return new TimeEvictor<>(span.toMillis(), doEvictAfter);
    }

    @Override
    public void evictBefore(Elements<T> elements, Window window) {
        if (!after) {
            evict(elements);
        }
    }

    @Override
    public void evictAfter(Elements<T> elements, Window window) {
        if (after) {
            evict(elements);
        }
    }

    private void evict(Elements<T> elements) {
        long max = Long.MIN_VALUE;
        for (int i = 0; i < elements.size(); i++) {
            if (!elements.isEvicted(i)) {
                max = Math.max(max, elements.timestamp(i));
            }
        }
        long cutoff = max - span;
        for (int i = 0; i < elements.size(); i++) {
            if (!elements.isEvicted(i) && elements.timestamp(i) <= cutoff) {
                elements.evict(i);
            }
        }
    }
}

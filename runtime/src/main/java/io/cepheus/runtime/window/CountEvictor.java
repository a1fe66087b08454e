package io.cepheus.runtime.window;

/**
 * Keeps the last {@code n} elements (in arrival order) of a window, before the window function (default) or
 * after it.
 *
 * @param <T> the element type
 */
public final class CountEvictor<T> implements Evictor<T> {

    private final long maxCount;
    private final boolean after;

    private CountEvictor(long maxCount, boolean after) {
        if (maxCount < 0) {
            throw new IllegalArgumentException("CountEvictor needs a count of at least 0, was " + maxCount);
        }
        this.maxCount = maxCount;
        this.after = after;
    }

    /**
     * @param n elements to keep
     * @param <T> element type
     * @return evicts before the function
     */
    public static <T> CountEvictor<T> of(long n) {
        return new CountEvictor<>(n, false);
    }

    /**
     * @param n elements to keep
     * @param doEvictAfter evict after the function
     * @param <T> element type
     * @return it
     */
    public static <T> CountEvictor<T> of(long n, boolean doEvictAfter) {
        return new CountEvictor<>(n, doEvictAfter);
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
        long toEvict = elements.remaining() - maxCount;
        for (int i = 0; i < elements.size() && toEvict > 0; i++) {
            if (!elements.isEvicted(i)) {
                elements.evict(i);
                toEvict--;
            }
        }
    }
}

package io.cepheus.runtime.window;

import java.util.Objects;

/**
 * Evicts the elements whose delta to the newest (last arrived) element is at least {@code threshold}, before the
 * window function (default) or after it.
 *
 * @param <T> the element type
 */
public final class DeltaEvictor<T> implements Evictor<T> {

    /**
     * The distance between two elements.
     *
     * @param <T> the element type
     */
    @FunctionalInterface
    public interface DeltaFunction<T> {
        /**
         * @param element an element of the window
         * @param newest  the window's newest element
         * @return the delta between {@code element} and {@code newest}
         */
        double delta(T element, T newest);
    }

    private final double threshold;
    private final DeltaFunction<? super T> delta;
    private final boolean after;

    private DeltaEvictor(double threshold, DeltaFunction<? super T> delta, boolean after) {
        this.threshold = threshold;
        this.delta = Objects.requireNonNull(delta, "delta");
        this.after = after;
    }

    /**
     * @param threshold evict at this delta or more
     * @param delta     the distance
     * @param <T>       the element type
     * @return the evictor, evicting before the function
     */
    public static <T> DeltaEvictor<T> of(double threshold, DeltaFunction<? super T> delta) {
        return new DeltaEvictor<>(threshold, delta, false);
    }

    /**
     * @param threshold    evict at this delta or more
     * @param delta        the distance
     * @param doEvictAfter evict after the function instead of before it
     * @param <T>          the element type
     * @return the evictor
     */
    public static <T> DeltaEvictor<T> of(double threshold, DeltaFunction<? super T> delta, boolean doEvictAfter) {
        return new DeltaEvictor<>(threshold, delta, doEvictAfter);
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
        int last = -1;
        for (int i = elements.size() - 1; i >= 0; i--) {
            if (!elements.isEvicted(i)) {
                last = i;
                break;
            }
        }
        if (last < 0) {
            return;
        }
        T newest = elements.value(last);
        for (int i = 0; i < elements.size(); i++) {
            if (!elements.isEvicted(i) && delta.delta(elements.value(i), newest) >= threshold) {
                elements.evict(i);
            }
        }
    }
}

package io.cepheus.runtime.window;

/**
 * The session gap of an element, for dynamic session windows: the element opens {@code [ts, ts + gap)}.
 *
 * @param <T> the element type
 */
@FunctionalInterface
public interface SessionGapExtractor<T> {
    /**
     * @param element the element
     * @return its gap in ms, greater than 0
     */
    long extract(T element);
}

package io.cepheus.runtime.window;

/** The gap of one element under static or dynamic session windows. */
final class SessionGaps {

    private SessionGaps() {
    }

    static <T> long gapOf(T element, long gap, SessionGapExtractor<? super T> dynamicGap) {
        if (dynamicGap == null) {
            return gap;
        }
        long g = dynamicGap.extract(element);
        if (g <= 0) {
            throw new IllegalArgumentException("Dynamic session time gap must satisfy 0 < gap, was " + g
                    + " ms for " + element);
        }
        return g;
    }
}

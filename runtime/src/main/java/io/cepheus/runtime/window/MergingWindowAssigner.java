package io.cepheus.runtime.window;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * An assigner whose windows of one key can merge (Flink's {@code MergingWindowAssigner}). Each time an element is
 * assigned a window, {@link #mergeWindows} decides which of the key's windows merge into which; by default windows
 * that overlap or touch ({@link TimeWindow#intersects}) merge into the smallest window covering them (sessions).
 * Merged windows' contents combine (with the reduce or aggregate function's merge), their triggers' state combines
 * ({@link Trigger#onMerge}) and they are removed with their timers; the trigger must support merging
 * ({@link Trigger#canMerge()}), and per-window process state is not available.
 *
 * @param <T> the element type
 */
public interface MergingWindowAssigner<T> extends WindowAssigner<T> {

    /**
     * Decides which windows merge. Called for every window assigned to an element, with that key's live windows
     * (in the order they were opened) followed by the new window (left out when it equals a live one); report each
     * merge through {@code callback}, any number of times. Windows named in no merge stay as they are. The element
     * goes to the result of the merge that took its window, else to its own window.
     *
     * <p>The default is {@link #mergeOverlapping}: windows that overlap or touch merge into their cover. The
     * built-in session assigners ({@link EventTimeSessionWindows}, {@link ProcessingTimeSessionWindows}) use it and
     * the engine applies it to them in place, without calling this method, so that they allocate nothing per
     * element; for other assigners each call costs a few small allocations.
     *
     * <p>Contract (checked; a violation fails the element with {@link IllegalStateException}, leaving the windows
     * unchanged): merges name only windows from {@code windows}, no window in two merges, and a merge result does
     * not equal a window of {@code windows} outside that merge, nor another merge's result. A merge result may be
     * one of its merged windows (that window then takes the others in) and need not cover them. As in Flink, a
     * result that takes in live windows must not be past cleanup: for event time {@code maxTimestamp + lateness}
     * above the watermark, for processing time {@code maxTimestamp} above the clock (else
     * {@link UnsupportedOperationException}); a new window that merges with nothing live and is past cleanup is
     * not created.
     *
     * @param windows  the candidates, unmodifiable and valid only during the call
     * @param callback receives the merges
     */
    default void mergeWindows(Collection<TimeWindow> windows, MergeCallback callback) {
        mergeOverlapping(windows, callback);
    }

    /**
     * The session rule, as Flink's {@code TimeWindow.mergeWindows}: sorted by start, each run of windows in which
     * the next one starts at or before the end of the run so far becomes one merge into the run's cover (runs of one
     * window are not reported). A rule of one's own can apply it to a subset of the candidates.
     *
     * @param windows  the candidates
     * @param callback receives the merges
     */
    static void mergeOverlapping(Collection<TimeWindow> windows, MergeCallback callback) {
        List<TimeWindow> sorted = new ArrayList<>(windows);
        sorted.sort(Comparator.comparingLong(TimeWindow::start));
        List<TimeWindow> run = new ArrayList<>();
        TimeWindow cover = null;
        for (TimeWindow w : sorted) {
            if (cover != null && cover.intersects(w)) {
                run.add(w);
                cover = cover.cover(w);
            } else {
                reportRun(run, cover, callback);
                run = new ArrayList<>();
                run.add(w);
                cover = w;
            }
        }
        reportRun(run, cover, callback);
    }

    private static void reportRun(List<TimeWindow> run, TimeWindow cover, MergeCallback callback) {
        if (run.size() > 1) {
            callback.merge(run, cover);
        }
    }

    /** Receives the merges {@link #mergeWindows} decides on. */
    @FunctionalInterface
    interface MergeCallback {
        /**
         * @param toBeMerged  windows that merge (at least one; copied by the engine)
         * @param mergeResult the window they merge into
         */
        void merge(Collection<TimeWindow> toBeMerged, TimeWindow mergeResult);
    }
}

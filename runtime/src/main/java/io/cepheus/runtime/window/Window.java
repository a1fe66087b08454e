package io.cepheus.runtime.window;

/**
 * A window: a time interval ({@link TimeWindow}) or the one window of a key ({@link GlobalWindow}).
 */
public sealed interface Window permits TimeWindow, GlobalWindow {

    /** @return the largest timestamp that belongs to the window; results of the window carry it */
    long maxTimestamp();
}

package io.cepheus.runtime.window;

/** What a trigger decides for its window. */
public enum TriggerResult {
    /** Nothing. */
    CONTINUE(false, false),
    /** Evaluate the window function and emit; keep the contents. */
    FIRE(true, false),
    /** Drop the contents without emitting (trigger state and timers stay until cleanup). */
    PURGE(false, true),
    /** Emit, then drop the contents. */
    FIRE_AND_PURGE(true, true);

    private final boolean fire;
    private final boolean purge;

    TriggerResult(boolean fire, boolean purge) {
        this.fire = fire;
        this.purge = purge;
    }

    /** @return whether the window is evaluated */
    public boolean isFire() {
        return fire;
    }

    /** @return whether the contents are dropped */
    public boolean isPurge() {
        return purge;
    }
}

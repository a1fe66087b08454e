package io.cepheus.runtime.window;

/** The single window of a key under {@link GlobalWindows}; it never ends. */
public final class GlobalWindow implements Window {

    private static final GlobalWindow INSTANCE = new GlobalWindow();

    private GlobalWindow() {
    }

    /** @return the global window */
    public static GlobalWindow get() {
        return INSTANCE;
    }

    /** @return {@code Long.MAX_VALUE} */
    @Override
    public long maxTimestamp() {
        return Long.MAX_VALUE;
    }

    @Override
    public String toString() {
        return "global";
    }
}

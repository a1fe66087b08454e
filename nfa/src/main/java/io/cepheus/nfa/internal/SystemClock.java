package io.cepheus.nfa.internal;

/** The default processing-time clock; the only place the NFA module reads wall-clock time. */
public final class SystemClock {
    private SystemClock() {
    }

    /** @return the system time in milliseconds */
    public static long millis() {
        return System.currentTimeMillis();
    }
}

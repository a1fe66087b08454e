package io.cepheus.runtime.time;

/**
 * The wall clock: {@link System#currentTimeMillis()}, the processing time Flink uses. This is the only class of
 * the runtime that reads the machine's time; obtain it through {@link Clock#system()}.
 *
 * <p>Stateless, so any thread may use the single instance. Its values can go backwards when the machine's
 * time is adjusted.
 */
final class SystemClock implements Clock {

    static final SystemClock INSTANCE = new SystemClock();

    private SystemClock() {
    }

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }

    @Override
    public String toString() {
        return "SystemClock";
    }
}

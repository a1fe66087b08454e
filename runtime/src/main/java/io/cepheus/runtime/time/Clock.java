package io.cepheus.runtime.time;

/**
 * A source of processing time in milliseconds. The runtime never reads the wall clock itself: it asks the
 * clock it was given, so production runs on {@link #system()} and tests run on a {@link ManualClock}.
 *
 * <p>A clock's values should not go backwards, but the system clock can when the machine's time is adjusted;
 * every consumer in the runtime tolerates that (time that went backwards counts as no time passing).
 *
 * <pre>{@code
 * Clock production = Clock.system();
 * ManualClock test = new ManualClock(1_000);
 * Clock fixed = () -> 42;                  // any lambda will do
 * }</pre>
 */
@FunctionalInterface
public interface Clock {

    /**
     * @return the current time in milliseconds (milliseconds since the Unix epoch for {@link #system()}; any
     *     origin for other clocks)
     */
    long millis();

    /**
     * @return the clock that reads the machine's wall-clock time; safe to share between threads
     */
    static Clock system() {
        return SystemClock.INSTANCE;
    }
}

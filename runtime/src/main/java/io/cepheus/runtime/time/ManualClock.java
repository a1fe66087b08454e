package io.cepheus.runtime.time;

import java.time.Duration;
import java.util.Objects;

/**
 * A clock that only moves when told to, for tests and deterministic harnesses. It never goes backwards:
 * {@link #set(long)} to an earlier time and negative {@link #advance(long)} are rejected, because the timers and
 * idleness detection that read it assume processing time only moves forward.
 *
 * <p>Threading: one thread (the test) moves the clock; {@link #set} and {@link #advance} are not atomic, so
 * two threads must never move it concurrently. The time is held in a volatile field, so other threads (for
 * example a worker thread in a stress test) see each move as soon as it is made.
 *
 * <pre>{@code
 * ManualClock clock = new ManualClock();     // starts at 0
 * clock.advance(Duration.ofSeconds(1));      // now 1000
 * clock.set(5_000);                          // now 5000
 * }</pre>
 */
public final class ManualClock implements Clock {

    private volatile long now;

    /** A clock starting at time 0. */
    public ManualClock() {
        this(0L);
    }

    /** @param startMillis the clock's initial time in milliseconds */
    public ManualClock(long startMillis) {
        this.now = startMillis;
    }

    @Override
    public long millis() {
        return now;
    }

    /**
     * Moves the clock to a time.
     *
     * @param millis the new time; not earlier than the current time
     * @throws IllegalArgumentException if {@code millis} is earlier than the current time
     */
    public void set(long millis) {
        long current = now;
        if (millis < current) {
            throw new IllegalArgumentException(
                    "a ManualClock cannot go backwards: it is at " + current + " ms, asked to set " + millis + " ms");
        }
        now = millis;
    }

    /**
     * Moves the clock forward.
     *
     * @param millis how many milliseconds to move; not negative
     * @return the new time
     * @throws IllegalArgumentException if {@code millis} is negative or the new time would overflow a long
     */
    public long advance(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("a ManualClock cannot go backwards: asked to advance by " + millis + " ms");
        }
        long current = now;
        long next = current + millis;
        if (next < current) {
            throw new IllegalArgumentException(
                    "advancing a ManualClock at " + current + " ms by " + millis + " ms overflows a long");
        }
        now = next;
        return next;
    }

    /**
     * Moves the clock forward by a duration, truncated to whole milliseconds.
     *
     * @param duration how far to move; not negative
     * @return the new time
     * @throws NullPointerException if {@code duration} is null
     * @throws IllegalArgumentException if {@code duration} is negative or the new time would overflow a long
     */
    public long advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a ManualClock cannot go backwards: asked to advance by " + duration);
        }
        long millis;
        try {
            millis = duration.toMillis();
        } catch (ArithmeticException tooLong) {
            throw new IllegalArgumentException("advancing a ManualClock by " + duration + " overflows a long", tooLong);
        }
        return advance(millis);
    }

    @Override
    public String toString() {
        return "ManualClock[" + now + " ms]";
    }
}

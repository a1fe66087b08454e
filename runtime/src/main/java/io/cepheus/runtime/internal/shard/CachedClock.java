package io.cepheus.runtime.internal.shard;

import io.cepheus.runtime.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's clock as producers read it on every send: the last value some thread read from the real clock,
 * instead of a clock call per send.
 *
 * <p>Why: a send needs the time (periodic watermarks, the activity mark the shards' silence detection reads),
 * and on virtual machines {@code System.currentTimeMillis()} costs ~50 ns, the largest single cost of a send.
 * Reading a cached millisecond is a plain load of a line that changes at most once per millisecond. The idea
 * is Agrona's cached clocks.
 *
 * <p>Who refreshes: each shard's duty cycle (so with running shards the value is at most one duty cycle old;
 * idle shards park at most their idle strategy's longest park, 1 ms by default) and, as a bound when no shard
 * runs (a test harness between runs), every producer on every {@value #REFRESH_EVERY}th read. The value never
 * goes backwards: a refresh that reads an earlier time than the cached one (a clock adjusted back, or a race
 * between two refreshing threads) leaves it, which consumers already read as "no time passed".
 *
 * <p>Only for the system clock: a test's manual clock must be seen the moment the test moves it, and reading
 * it costs nothing, so the engine gives producers the manual clock itself.
 *
 * <p>Thread-safe: any thread may read and refresh.
 */
public final class CachedClock implements Clock {

    /** A producer refreshes on every this many reads (a power of two). */
    public static final int REFRESH_EVERY = 64;

    private final Clock source;
    private final AtomicLong now = new AtomicLong();

    /** @param source the real clock */
    public CachedClock(Clock source) {
        this.source = java.util.Objects.requireNonNull(source, "source");
        now.set(source.millis());
    }

    /** @return the time of the latest refresh by any thread */
    @Override
    public long millis() {
        return now.get();
    }

    /**
     * Reads the real clock into the cache (writing only when the millisecond moved on).
     *
     * @return the cached time after the refresh
     */
    public long refresh() {
        long t = source.millis();
        long cached = now.get();
        if (t > cached && now.compareAndSet(cached, t)) {
            return t;
        }
        return now.get();
    }

    @Override
    public String toString() {
        return "CachedClock[" + source + "]";
    }
}

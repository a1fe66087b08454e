package io.cepheus.runtime.internal.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.runtime.time.ManualClock;
import org.junit.jupiter.api.Test;

class CachedClockTest {

    @Test
    void readsTheCachedTimeUntilARefresh() {
        ManualClock source = new ManualClock(1_000);
        CachedClock clock = new CachedClock(source);
        source.advance(java.time.Duration.ofMillis(5));
        assertEquals(1_000, clock.millis(), "a read without refresh sees the cached time");
        assertEquals(1_005, clock.refresh());
        assertEquals(1_005, clock.millis());
    }

    @Test
    void neverGoesBackwards() {
        long[] now = {2_000};
        CachedClock clock = new CachedClock(() -> now[0]);
        now[0] = 1_500; // the machine's clock was set back
        assertEquals(2_000, clock.refresh(), "an earlier reading reads as no time passed");
        assertEquals(2_000, clock.millis());
        now[0] = 2_001;
        assertEquals(2_001, clock.refresh());
    }
}

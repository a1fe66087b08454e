package io.cepheus.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Progress lines on stderr, driven by an injected clock. */
class ProgressTest {

    private long now;

    private final Progress.Counters counters = new Progress.Counters() {
        @Override
        public long alerts() {
            return 7;
        }

        @Override
        public long lateEvents() {
            return 2;
        }
    };

    @Test
    void onATerminalOneLineIsRedrawnInPlace() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, () -> now);
        now = Progress.IN_PLACE_INTERVAL_NANOS - 1;
        p.update(1024, counters);                    // not yet due
        now = Progress.IN_PLACE_INTERVAL_NANOS;
        p.update(1000, counters);                    // due, but the clock is read every 1,024 events only
        p.update(2048, counters);
        now = 2_000_000_000L;
        p.update(3072, counters);
        p.done();
        assertEquals("\r2,048 events  8,192 events/s  7 alerts  2 late  (0 s)"
                + "\r3,072 events  1,536 events/s  7 alerts  2 late  (2 s)\n",
                bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    @Test
    void otherwiseAFullLineEveryTenSeconds() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, () -> now);
        now = 5_000_000_000L;
        p.update(1024, counters);
        now = Progress.LINE_INTERVAL_NANOS;
        p.update(2048, counters);
        now += 1_000_000_000L;
        p.update(3072, counters);
        p.done();
        assertEquals("2,048 events  205 events/s  7 alerts  2 late  (10 s)\n",
                bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    @Test
    void aShortRunPrintsNothingAndNoProgressMeansNothing() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, () -> now);
        p.update(1024, counters);
        p.done();
        new Progress(null, true, () -> now).update(1 << 20, counters);
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
    }
}

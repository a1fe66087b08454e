package io.cepheus.examples.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a long run on stderr: events, events per second, alerts, late events. On a terminal one line is
 * rewritten in place ({@code \r}) a few times a second; otherwise (a log, a pipe) a full line is printed every
 * ten seconds. Nothing is printed for runs shorter than the first interval. Time comes from the injected
 * clock. Used by the one thread that feeds the events.
 */
public final class Progress {

    /** How often the in-place line is redrawn. */
    static final long IN_PLACE_INTERVAL_NANOS = 250_000_000L;
    /** How often a line is printed when not on a terminal. */
    static final long LINE_INTERVAL_NANOS = 10_000_000_000L;
    /** The clock is read once per this many events (a power of two). */
    private static final int CHECK_EVERY = 1 << 10;

    /** The counters a line shows, read only when a line is due. */
    public interface Counters {
        /** @return alerts so far */
        long alerts();

        /** @return late events so far */
        long lateEvents();
    }

    private final PrintStream err;
    private final boolean inPlace;
    private final LongSupplier nanos;
    private final long interval;
    private final long started;
    private long nextAt;
    private boolean printed;
    private int lastWidth;

    /**
     * @param err     where to print, or null for no progress at all
     * @param inPlace whether stderr is a terminal (rewrite one line) or not (print lines)
     * @param nanos   a monotonic clock
     */
    public Progress(PrintStream err, boolean inPlace, LongSupplier nanos) {
        this.err = err;
        this.inPlace = inPlace;
        this.nanos = nanos;
        this.interval = inPlace ? IN_PLACE_INTERVAL_NANOS : LINE_INTERVAL_NANOS;
        this.started = nanos.getAsLong();
        this.nextAt = started + interval;
    }

    /**
     * Called after each event; cheap unless a line is due.
     *
     * @param events   events so far
     * @param counters the other counters
     */
    public void update(long events, Counters counters) {
        if (err == null || (events & (CHECK_EVERY - 1)) != 0) {
            return;
        }
        long now = nanos.getAsLong();
        if (now - nextAt < 0) {
            return;
        }
        nextAt = now + interval;
        String line = line(events, counters.alerts(), counters.lateEvents(), now - started);
        if (inPlace) {
            // pad over the previous line's tail when the new one is shorter
            String padded = line + " ".repeat(Math.max(0, lastWidth - line.length()));
            lastWidth = line.length();
            err.print("\r" + padded);
        } else {
            err.println(line);
        }
        err.flush();
        printed = true;
    }

    /** Ends the in-place line, if one was drawn, so what follows starts on a line of its own. */
    public void done() {
        if (err != null && inPlace && printed) {
            err.println();
            err.flush();
        }
    }

    /**
     * @param events       events so far
     * @param alerts       alerts so far
     * @param late         late events so far
     * @param elapsedNanos time since the start
     * @return the progress line
     */
    static String line(long events, long alerts, long late, long elapsedNanos) {
        long rate = elapsedNanos <= 0 ? 0 : Math.round(events * 1e9 / elapsedNanos);
        return String.format(Locale.ROOT, "%,d events  %,d events/s  %,d alerts  %,d late  (%.0f s)", events, rate,
                alerts, late, elapsedNanos / 1e9);
    }
}

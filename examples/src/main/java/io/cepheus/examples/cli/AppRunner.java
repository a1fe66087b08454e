package io.cepheus.examples.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Drives an app's pipeline from an event source: sends every event, derives event time from the data (after
 * each event, the watermark {@code max time seen - max delay - 1}, so an event more than the delay behind the
 * newest is late), hands work between engines every 256 events, handles malformed lines per
 * {@code --on-error}, reports progress, and prints the summary. Runs on the caller's thread; deterministic for
 * a given input whatever the speed (no wall clock decides anything but the progress lines).
 */
public final class AppRunner {

    /** At most this many malformed lines are printed one by one. */
    static final int MALFORMED_SHOWN = 10;
    /** The summary shows a throughput for runs of at least this many events. */
    static final long THROUGHPUT_MIN_EVENTS = 10_000;
    /** Work is handed between engines every this many events (a power of two). */
    static final int PUMP_EVERY = 256;

    /**
     * What a run did.
     *
     * @param events       events sent
     * @param malformed    malformed lines skipped
     * @param late         late events
     * @param alerts       alerts raised
     * @param perRule      alerts per rule
     * @param elapsedNanos time taken
     */
    public record Summary(long events, long malformed, long late, long alerts, Map<String, Long> perRule,
            long elapsedNanos) {

        /** @return events per second, from the elapsed time */
        public long eventsPerSecond() {
            return Math.round(events * 1e9 / Math.max(1, elapsedNanos));
        }

        /** @param out where to print the summary table */
        public void print(PrintStream out) {
            out.println();
            out.printf(Locale.ROOT, "events          %,12d%n", events);
            out.printf(Locale.ROOT, "alerts          %,12d%n", alerts);
            perRule.forEach((rule, n) -> out.printf(Locale.ROOT, "  %-22s%,8d%n", rule, n));
            out.printf(Locale.ROOT, "late events     %,12d%n", late);
            if (malformed > 0) {
                out.printf(Locale.ROOT, "malformed lines %,12d (skipped)%n", malformed);
            }
            if (events >= THROUGHPUT_MIN_EVENTS) {
                // below that, starting and stopping the engine's threads is most of the time
                out.printf(Locale.ROOT, "throughput      %,12d events/s%n", eventsPerSecond());
            }
            out.printf(Locale.ROOT, "elapsed         %,12.1f ms%n", elapsedNanos / 1e6);
        }
    }

    /** Stopped by a malformed line under {@code --on-error abort}, or a fatal one. */
    public static final class AbortedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AbortedException(MalformedLineException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private final PrintStream err;
    private final LongSupplier nanos;

    /**
     * @param err   where malformed lines are reported
     * @param nanos a monotonic clock, for the throughput and progress
     */
    public AppRunner(PrintStream err, LongSupplier nanos) {
        this.err = err;
        this.nanos = nanos;
    }

    /**
     * @param app          the app
     * @param source       the events
     * @param pipeline     the app's pipeline, not started
     * @param output       where the alerts go (the pipeline's sink)
     * @param maxDelay     how far behind the newest event an event may come and still be matched
     * @param skipMalformed whether a malformed line is skipped (true) or stops the run (false)
     * @param progress     progress reporting
     * @param <E>          the event type
     * @return the summary
     * @throws AbortedException if a malformed line stopped the run (the alerts up to it were raised)
     */
    public <E> Summary run(ExampleApp<E> app, EventSource<E> source, Pipeline<E> pipeline, AlertCounts output,
            Duration maxDelay, boolean skipMalformed, Progress progress) {
        long delay = maxDelay.toMillis();
        long started = nanos.getAsLong();
        long events = 0;
        long malformed = 0;
        long newest = Long.MIN_VALUE;
        Progress.Counters counters = new Progress.Counters() {
            @Override
            public long alerts() {
                return output.total();
            }

            @Override
            public long lateEvents() {
                return pipeline.lateEvents();
            }
        };
        pipeline.start();
        boolean finished = false;
        try {
            while (true) {
                E event;
                try {
                    event = source.next();
                } catch (MalformedLineException e) {
                    if (!skipMalformed || e.fatal()) {
                        throw new AbortedException(e);
                    }
                    malformed++;
                    if (malformed <= MALFORMED_SHOWN) {
                        err.println("cepheus: skipped " + e.getMessage());
                    } else if (malformed == MALFORMED_SHOWN + 1) {
                        err.println("cepheus: more malformed lines skipped; the summary counts them");
                    }
                    continue;
                }
                if (event == null) {
                    break;
                }
                pipeline.send(event);
                events++;
                long ts = app.time().applyAsLong(event);
                if (ts > newest) {
                    newest = ts;
                    if (ts > Long.MIN_VALUE + delay + 1) {
                        pipeline.watermark(ts - delay - 1);
                    }
                }
                if ((events & (PUMP_EVERY - 1)) == 0) {
                    pipeline.pump();
                }
                progress.update(events, counters);
            }
            pipeline.finish();
            finished = true;
        } finally {
            if (!finished) {
                // stopped early: still stop the engines' threads (flushing what they hold)
                pipeline.finish();
            }
            progress.done();
        }
        long elapsed = nanos.getAsLong() - started;
        return new Summary(events, malformed, pipeline.lateEvents(), output.total(), output.perRule(), elapsed);
    }
}

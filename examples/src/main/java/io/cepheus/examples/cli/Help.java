package io.cepheus.examples.cli;

import java.util.Locale;

/** The {@code --help} texts. */
final class Help {

    private Help() {
    }

    private static final String APP_OPTIONS = """
              --out FILE|-       also write the alerts as JSON Lines to FILE ('-': standard output, and the
                                 readable lines are left out; the summary goes to standard error)
              --explain          print the app's compiled patterns as Mermaid and DOT diagrams, and stop
              --shards N         engine shards (worker threads), 1 to 64 (default 1: alerts in time order)
              --max-delay D      how late an event may come, behind the newest one, and still be matched
                                 (500ms, 5s, 2m, 1h; default 5s); later ones are counted as late
              --no-progress      no progress line on standard error
              --help             this help
            """;

    /** @return the top-level help */
    static String top() {
        StringBuilder apps = new StringBuilder();
        for (ExampleApp<?> app : Apps.ALL) {
            if (!app.name().equals("fraud")) {
                apps.append(String.format(Locale.ROOT, "  %-16s %s%n", app.name(), app.title()));
            }
        }
        return """
                Cepheus: complex event processing in your JVM. Example alerting apps on the streaming engine.

                Usage: java -jar examples/target/cepheus-demo.jar [COMMAND] [OPTIONS]

                Commands:
                  demo             the fraud-detection demo over generated logins and payments (the default)
                %s  windows          payments aggregated per user: tumbling reduce, sliding aggregate, sessions
                  order-payments   the order-payment interval-join study (R = 1, 5, 15, 60 min), unpaid orders
                  run APP          run an app over your CSV or JSON Lines events: --input FILE|-
                  run --rules DIR  run your rules (JSON rule files) over your events: --input, --key, --time
                  explain          why your rules did or did not match some keys: a timeline, or an HTML page
                  help [COMMAND]   this help, or a command's

                Each app command runs the app over its sample data. 'COMMAND --help' tells more, and an app's
                help lists the fields its input needs. Exit status: 0 done, 1 failed, 2 bad arguments.
                """.formatted(apps);
    }

    /**
     * @param command a command or app name
     * @return its help, or null if there is no such command
     */
    static String of(String command) {
        switch (command) {
            case "demo", "fraud":
                return """
                        Usage: cepheus [demo] [--seed N] [OPTIONS]

                        The fraud-detection demo: two rules over a generated stream of ~50,000 logins and card
                        payments (2,000 users, 3 hours, planted fraud and near misses), on the streaming engine.
                        Alerts are printed as they are raised, then a summary.

                          --seed N           the stream's seed (default 20250301)
                        %s
                        The same app runs over your data: cepheus run fraud --input FILE (see 'cepheus run --help').
                        Its input fields:
                        %s
                        """.formatted(APP_OPTIONS, fields(Apps.FRAUD));
            case "run":
                StringBuilder apps = new StringBuilder();
                for (ExampleApp<?> app : Apps.ALL) {
                    apps.append(String.format(Locale.ROOT, "  %-16s %s%n", app.name(), app.title()));
                }
                return """
                        Usage: cepheus run APP --input FILE|- [OPTIONS]
                               cepheus run --rules DIR|FILE --input FILE|- --key FIELD --time FIELD [OPTIONS]

                        Runs an example app over your events: CSV with a header line, or JSON Lines (one flat
                        object per line). 'cepheus APP --help' lists the fields an app reads; extra columns or keys
                        are ignored. Times are epoch milliseconds or ISO-8601 (2025-03-01T08:00:00Z); amounts are
                        decimals (12.34). Events may come out of order by up to --max-delay.

                          --input FILE|-     the events ('-': standard input)
                          --format F         csv or jsonl (default: from the file name, else from the first line)
                          --on-error E       a malformed line is reported with its number and skipped (skip, the
                                             default) or stops the run with exit status 1 (abort)
                        %s
                        Apps:
                        %s
                        Your rules: --rules names a folder of rule files (*.json, the rule format of the
                        cepheus-rules module; examples/rules holds the apps' rules) or one file. Events are maps of
                        their fields, typed as the data types them: JSON values keep their types (nested objects
                        too: card.country), CSV cells are integers, decimals, true/false, or text (0012 stays text).

                          --key FIELD        the field the rules match per value of; FIELD,FIELD: the first an event
                                             has (card,user keys payments by card, logins by user)
                          --time FIELD       the event time, epoch ms or ISO-8601; rules see it in epoch ms
                          --watch            read the rule folder again every --watch-interval while events
                                             arrive: a new or changed file (with a higher version) replaces the
                                             running rule from the next event on, a deleted one removes it, an
                                             invalid one is reported and the running version stays
                          --watch-interval D how often (default 1s)
                          --timeouts         also report timed-out partial matches
                          --out FILE|-       as for apps: JSON Lines, one alert per line: rule, version, key, time,
                                             ts, and the matched events by stage
                        An event a rule cannot evaluate (a text compared with a number) is reported on standard
                        error and skipped by that rule; the summary counts them.
                        """.formatted(APP_OPTIONS, apps);
            case "explain":
                return """
                        Usage: cepheus explain --rules DIR|FILE --input FILE|- --key FIELD=VALUE[,VALUE...]
                                               --time FIELD [--rule ID] [--html FILE] [OPTIONS]

                        Runs your rules over your events as 'run --rules' does, tracing the rules for the keys
                        asked about, and prints each key's timeline per rule: every event of the key, which partial
                        matches it started, extended or completed, and why each partial match that ended without a
                        match ended (a condition false at a stage, with the values of the fields it read; strict
                        contiguity broken; the window closed; pruned by the skip strategy; rejected at the bound),
                        late events with the watermark they missed, and the watermark's moves.

                          --rules DIR|FILE   the rule files, as for run
                          --input FILE|-     the events, as for run
                          --key FIELD=VALUES the key field and the keys to explain (user=bob or user=bob,erin)
                          --time FIELD       the event time, epoch ms or ISO-8601
                          --rule ID          explain this rule only (default: every rule)
                          --html FILE        also write one self-contained HTML page: per key and rule, the events on
                                             a time axis (hover one for its fields), each partial match as a bar
                                             from its first event to where it ended, coloured by how it ended, and
                                             the watermark
                          --format F, --on-error E, --max-delay D: as for run
                        """;
            case "windows":
                return """
                        Usage: cepheus windows

                        Three payments (u1 10.00 at 1,000,000 ms, u1 7.50 at 1,010,000, u2 3.00 at 1,050,000) with a
                        5 s bounded-out-of-orderness watermark, keyed by user, aggregated three ways: 1-minute
                        tumbling windows keeping the largest payment (reduce), 5-minute windows sliding by 1 minute
                        with sum and average (aggregate), 10-minute sessions summarised by a process function.
                        Source: examples/src/main/java/io/cepheus/examples/windows/PaymentWindows.java
                        """;
            case "order-payments":
                return """
                        Usage: cepheus order-payments

                        Joins 10,000 orders to their payments (orders-payments.csv, bundled) with an interval join
                        [0, R] for R = 1, 5, 15 and 60 minutes, fed by event time with watermarks; prints the matched
                        orders, the unpaid ones (leftOuter: the alert Flink's interval join cannot give) and the
                        elements held in join state per side, measured from the operator.
                        Source: examples/src/main/java/io/cepheus/examples/joins/OrderPaymentStudy.java
                        """;
            default:
                ExampleApp<?> app = Apps.byName(command);
                if (app == null) {
                    return null;
                }
                return """
                        Usage: cepheus %s [OPTIONS]          (over the app's sample data)
                               cepheus run %s --input FILE|- [OPTIONS]

                        %s

                        %s

                        Input fields (CSV header names or JSON keys):
                        %s
                        Options:
                        %s""".formatted(app.name(), app.name(), app.title(), app.description(), fields(app),
                        APP_OPTIONS);
        }
    }

    private static String fields(ExampleApp<?> app) {
        return String.join("\n", app.input().describeFields()) + "\n";
    }
}

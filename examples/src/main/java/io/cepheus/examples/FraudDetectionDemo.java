package io.cepheus.examples;

import io.cepheus.examples.Alert.Rule;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Cepheus's first demo: two fraud rules over a generated stream of logins and payments, printing each alert
 * as it is raised and a summary at the end.
 *
 * <pre>
 * mvn -B -ntp -q install -DskipTests &amp;&amp; java -jar examples/target/cepheus-demo.jar [seed]
 * </pre>
 *
 * The rules are in {@link FraudDetector}; the stream comes from {@link SampleStream}.
 */
public final class FraudDetectionDemo {

    private FraudDetectionDemo() {
    }

    /** @param args optionally the stream's seed */
    public static void main(String[] args) {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : SampleStream.DEFAULT_SEED;
        run(SampleStream.generate(seed), System.out);
    }

    /**
     * Runs both rules over the stream.
     *
     * @param stream the events
     * @param out    where alerts and the summary go
     * @return alerts raised per rule
     */
    static Map<Rule, Integer> run(SampleStream stream, PrintStream out) {
        out.printf(Locale.ROOT, "Cepheus fraud detection demo: %,d events, seed %d%n%n", stream.events().size(),
                stream.seed());

        Map<Rule, Integer> alertsPerRule = new EnumMap<>(Rule.class);
        for (Rule rule : Rule.values()) {
            alertsPerRule.put(rule, 0);
        }
        FraudDetector detector = new FraudDetector(alert -> {
            alertsPerRule.merge(alert.rule(), 1, Integer::sum);
            out.println(alert.describe());
        });

        long started = StopwatchClock.nanos();
        for (FraudEvent event : stream.events()) {
            detector.accept(event);
        }
        detector.finish();
        long elapsedNanos = Math.max(1, StopwatchClock.nanos() - started);

        out.println();
        out.printf(Locale.ROOT, "events          %,12d%n", stream.events().size());
        out.printf(Locale.ROOT, "brute force     %,12d alerts%n", alertsPerRule.get(Rule.BRUTE_FORCE));
        out.printf(Locale.ROOT, "card testing    %,12d alerts%n", alertsPerRule.get(Rule.CARD_TESTING));
        out.printf(Locale.ROOT, "throughput      %,12d events/s%n",
                Math.round(stream.events().size() * 1e9 / elapsedNanos));
        out.printf(Locale.ROOT, "elapsed         %,12.1f ms%n", elapsedNanos / 1e6);
        return alertsPerRule;
    }
}

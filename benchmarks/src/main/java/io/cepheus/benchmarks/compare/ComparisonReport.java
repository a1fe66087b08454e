package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.MatchChecksum;
import io.cepheus.benchmarks.workloads.RunResult;
import java.util.List;
import java.util.Locale;

/**
 * Formats comparison outcomes as a Markdown table, one row per engine and comparison: the console shows it and
 * the results file holds it. Only outcomes whose results were found equal get here, so "checksum equal" is
 * always "yes" in a printed table; the column is there so a reader of the file sees that it was checked.
 */
public final class ComparisonReport {

    private ComparisonReport() {
    }

    /**
     * @param outcomes the compared workloads, in table order
     * @return the Markdown table (header, separator, a row per engine of each outcome)
     */
    public static String table(List<ComparisonOutcome> outcomes) {
        StringBuilder out = new StringBuilder();
        out.append("| workload | input | engine | median events/s | min–max events/s | results "
                + "| checksum equal | allocated / event | retained heap after run | Cepheus / Flink |\n");
        out.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (ComparisonOutcome outcome : outcomes) {
            for (EngineStats cepheus : outcome.cepheus()) {
                row(out, outcome, cepheus, String.format(Locale.ROOT, "**%.1f×**", outcome.speedRatio(cepheus)));
            }
            row(out, outcome, outcome.flink(), "");
        }
        return out.toString();
    }

    /**
     * The cost of sliding windows against tumbling ones on the same elements, per engine: tumbling's median
     * events/s over sliding's (the aim: Cepheus's sliding no slower than 2× its tumbling).
     *
     * @param outcomes the compared rows
     * @return a paragraph for the table's end, or an empty string unless both window rows were run
     */
    public static String slidingVersusTumbling(List<ComparisonOutcome> outcomes) {
        ComparisonOutcome tumbling = find(outcomes, WindowSpec.TUMBLING.label());
        ComparisonOutcome sliding = find(outcomes, WindowSpec.SLIDING.label());
        if (tumbling == null || sliding == null) {
            return "";
        }
        return String.format(Locale.ROOT, "%nSliding 10 min / 10 s against tumbling 1 min (time per element, median"
                        + " over median): Cepheus %.2f×, Flink %.2f×.%n",
                tumbling.cepheus().get(0).medianEventsPerSecond() / sliding.cepheus().get(0).medianEventsPerSecond(),
                tumbling.flink().medianEventsPerSecond() / sliding.flink().medianEventsPerSecond());
    }

    private static ComparisonOutcome find(List<ComparisonOutcome> outcomes, String name) {
        for (ComparisonOutcome outcome : outcomes) {
            if (outcome.comparison().name().equals(name)) {
                return outcome;
            }
        }
        return null;
    }

    private static void row(StringBuilder out, ComparisonOutcome outcome, EngineStats stats, String ratio) {
        Comparison comparison = outcome.comparison();
        RunResult result = stats.result();
        boolean equal = outcome.cepheus().stream().allMatch(c -> c.result().equals(outcome.flink().result()));
        String format = "| %s | %s | %s | %s | %s–%s | %s | %s (%s) | %s | %s | %s |\n";
        out.append(String.format(Locale.ROOT, format, comparison.name(), String.format(Locale.ROOT, "%,d events, %s", comparison.events(), comparison.input()),
                stats.engine(), rate(stats.medianEventsPerSecond()), rate(stats.minEventsPerSecond()),
                rate(stats.maxEventsPerSecond()), comparison.kind().describe(result), equal ? "yes" : "NO",
                MatchChecksum.hex(result.checksum()), bytes(stats.medianBytesPerEvent()),
                stats.retainedBytes() == null ? "—" : bytes(stats.medianRetainedBytes()), ratio));
    }

    private static String rate(double eventsPerSecond) {
        return eventsPerSecond >= 1e6
                ? String.format(Locale.ROOT, "%.2f M", eventsPerSecond / 1e6)
                : String.format(Locale.ROOT, "%.3f M", eventsPerSecond / 1e6);
    }

    private static String bytes(double bytes) {
        double magnitude = Math.abs(bytes);
        if (magnitude >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / (1 << 20));
        }
        if (magnitude >= 1 << 10) {
            return String.format(Locale.ROOT, "%.1f KB", bytes / (1 << 10));
        }
        return String.format(Locale.ROOT, "%.0f B", bytes);
    }
}

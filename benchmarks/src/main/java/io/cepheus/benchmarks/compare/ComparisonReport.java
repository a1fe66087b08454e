package io.cepheus.benchmarks.compare;

import io.cepheus.examples.workloads.MatchChecksum;
import io.cepheus.examples.workloads.RunResult;
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
     * @return the Markdown table (header, separator, two rows per outcome)
     */
    public static String table(List<ComparisonOutcome> outcomes) {
        StringBuilder out = new StringBuilder();
        out.append("| workload | input | engine | median events/s | min–max events/s | matches / timeouts "
                + "| checksum equal | allocated / event | retained heap after run | Cepheus / Flink |\n");
        out.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (ComparisonOutcome outcome : outcomes) {
            row(out, outcome, outcome.cepheus(), String.format(Locale.ROOT, "**%.1f×**", outcome.speedRatio()));
            row(out, outcome, outcome.flink(), "");
        }
        return out.toString();
    }

    private static void row(StringBuilder out, ComparisonOutcome outcome, EngineStats stats, String ratio) {
        Comparison comparison = outcome.comparison();
        RunResult result = stats.result();
        boolean equal = outcome.cepheus().result().equals(outcome.flink().result());
        String format = "| %s | %s | %s | %s | %s–%s | %,d / %,d | %s (%s) | %s | %s | %s |\n";
        out.append(String.format(Locale.ROOT, format, comparison.name(), String.format(Locale.ROOT, "%,d events, %s", comparison.events(), comparison.input()),
                stats.engine(), rate(stats.medianEventsPerSecond()), rate(stats.minEventsPerSecond()),
                rate(stats.maxEventsPerSecond()), result.matches(), result.timeouts(), equal ? "yes" : "NO",
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

package io.cepheus.examples.cli;

import io.cepheus.nfa.Match;
import io.cepheus.runtime.rules.RuleMatchHandler;
import io.cepheus.runtime.rules.RuleTimeoutHandler;
import io.cepheus.runtime.rules.RuleVersion;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The alerts of rules run from the command line: a readable line each, and one JSON object per line with the rule's
 * id and version, the key, the time and the matched events by stage ({@code --out}); timed-out partial matches too
 * when asked ({@code --timeouts}). Called on the shards' threads: counters are concurrent and each alert is written
 * whole.
 */
final class RuleAlerts implements AlertCounts, RuleMatchHandler<MapEvent>, RuleTimeoutHandler<MapEvent> {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private final PrintStream lines;
    private final PrintStream json;
    private final boolean timeouts;
    private final AlertTally tally = new AlertTally();

    /**
     * @param lines    readable lines, or null
     * @param json     JSON Lines, or null
     * @param timeouts whether timed-out partial matches are alerts too
     */
    RuleAlerts(PrintStream lines, PrintStream json, boolean timeouts) {
        this.lines = lines;
        this.json = json;
        this.timeouts = timeouts;
    }

    /** @return whether timed-out partial matches are reported */
    boolean wantsTimeouts() {
        return timeouts;
    }

    @Override
    public void onMatch(RuleVersion rule, Object key, Match<MapEvent> match, long timestamp) {
        emit(rule, key, match, timestamp, false);
    }

    @Override
    public void onTimeout(RuleVersion rule, Object key, Match<MapEvent> partialMatch, long timeoutTimestamp) {
        emit(rule, key, partialMatch, timeoutTimestamp, true);
    }

    private void emit(RuleVersion rule, Object key, Match<MapEvent> match, long time, boolean timedOut) {
        String name = rule.id() + (timedOut ? " (timed out)" : "");
        tally.count(name);
        Map<String, List<MapEvent>> stages = match.asMap();
        if (lines != null) {
            StringBuilder sb = new StringBuilder();
            sb.append('[').append(CLOCK.format(Instant.ofEpochMilli(time))).append("] ").append(rule)
                    .append(timedOut ? " TIMED OUT " : "  ").append(key).append(':');
            stages.forEach((stage, events) -> sb.append(' ').append(stage).append('=').append(Json.write(events)));
            synchronized (lines) {
                lines.println(sb);
            }
        }
        if (json != null) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("rule", rule.id());
            out.put("version", rule.version());
            out.put("key", key);
            out.put("time", Instant.ofEpochMilli(time).toString());
            out.put("ts", time);
            if (timedOut) {
                out.put("timedOut", true);
            }
            out.put("match", new LinkedHashMap<>(stages));
            String text = Json.write(out);
            synchronized (json) {
                json.println(text);
            }
        }
    }

    @Override
    public long total() {
        return tally.total();
    }

    @Override
    public Map<String, Long> perRule() {
        return tally.perRule();
    }
}

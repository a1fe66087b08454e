package io.cepheus.examples.cli;

import io.cepheus.examples.Alert;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Where alerts go: a readable line each on a terminal stream, and/or one JSON object per line
 * ({@code --out}), counted per rule. Called on the engines' shard threads: the counters are concurrent and
 * each alert is written whole (alerts are rare, so the lock on the streams costs nothing that matters).
 */
public final class AlertOutput implements Consumer<Alert>, AlertCounts {

    private final PrintStream lines;
    private final PrintStream json;
    private final List<EventSchema<?>> schemas;
    private final AlertTally tally = new AlertTally();

    /**
     * @param lines   readable lines, or null
     * @param json    JSON Lines, or null
     * @param schemas how the alerts' events are written in JSON
     */
    public AlertOutput(PrintStream lines, PrintStream json, List<EventSchema<?>> schemas) {
        this.lines = lines;
        this.json = json;
        this.schemas = List.copyOf(schemas);
    }

    @Override
    public void accept(Alert alert) {
        tally.count(alert.rule());
        if (lines != null) {
            lines.println(alert.describe());
        }
        if (json != null) {
            json.println(toJson(alert));
        }
    }

    /**
     * @param alert an alert
     * @return it as one line of JSON: rule, key, time (ISO-8601) and ts (epoch ms), message, events
     */
    public String toJson(Alert alert) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("rule", alert.rule());
        out.put("key", alert.key());
        out.put("time", Instant.ofEpochMilli(alert.time()).toString());
        out.put("ts", alert.time());
        out.put("message", alert.message());
        List<Object> events = new ArrayList<>();
        for (Object e : alert.events()) {
            events.add(eventJson(e));
        }
        out.put("events", events);
        return Json.write(out);
    }

    private Object eventJson(Object event) {
        for (EventSchema<?> schema : schemas) {
            if (schema.handles(event)) {
                return schema.toJson(event);
            }
        }
        return String.valueOf(event);
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

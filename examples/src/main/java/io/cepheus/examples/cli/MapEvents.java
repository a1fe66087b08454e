package io.cepheus.examples.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How the command line turns your CSV and JSON Lines into {@link MapEvent}s for rules, with the field types the data
 * gives: a JSON value keeps its JSON type (nested objects become nested maps, so {@code card.country} reads them);
 * a CSV cell is an integer ({@code -12}, no leading zero), a decimal ({@code 0.50}), {@code true} or {@code false},
 * or else text (so {@code 0012} stays the text it is, as an id should). An empty cell is an absent field. The key is
 * the first of the key fields an event has; the time field, epoch milliseconds or ISO-8601, becomes epoch
 * milliseconds in the event. Stateless.
 */
final class MapEvents {

    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,17})");
    private static final Pattern DECIMAL = Pattern.compile("-?(0|[1-9][0-9]*)\\.[0-9]+");
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private MapEvents() {
    }

    /**
     * @param keyFields  the fields that key the events, in order of preference (an event's key is the first it has)
     * @param timeField  the field holding the event time
     * @return the schema that reads input lines into map events
     */
    static EventSchema<MapEvent> schema(List<String> keyFields, String timeField) {
        EventSchema.Builder<MapEvent> b = EventSchema.builder("event", MapEvent.class).typedJson();
        for (String k : keyFields) {
            b.field(k, EventSchema.Kind.TEXT, keyFields.size() == 1, "the key" + (keyFields.size() == 1 ? ""
                    : " (the first of " + String.join(", ", keyFields) + " an event has)"), e -> e.get(k));
        }
        return b.field(timeField, EventSchema.Kind.TIME, true, "the event time", e -> e.time())
                .parser(row -> event(row, keyFields, timeField));
    }

    private static MapEvent event(Row row, List<String> keyFields, String timeField) {
        Map<String, Object> fields = row.typed() != null ? new LinkedHashMap<>(row.typed()) : typedCells(row);
        Object key = null;
        for (String k : keyFields) {
            key = fields.get(k);
            if (key != null) {
                break;
            }
        }
        if (key == null) {
            throw new MalformedLineException(row.line(), keyFields.size() == 1 ? "missing field \"" + keyFields.get(0)
                    + "\" (the key)" : "none of the key fields " + String.join(", ", keyFields) + " is there");
        }
        if (key instanceof Map || key instanceof List) {
            throw new MalformedLineException(row.line(), "the key \"" + keyFields + "\" is an object or array, not a"
                    + " value");
        }
        long time = row.time(timeField);
        fields.put(timeField, time);
        return new MapEvent(fields, key, time);
    }

    private static Map<String, Object> typedCells(Row row) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : row.values().entrySet()) {
            Object v = cell(e.getValue());
            if (v != null) {
                out.put(e.getKey(), v);
            }
        }
        return out;
    }

    /** @return a CSV cell as the value it looks like; null for an empty one */
    static Object cell(String text) {
        String s = text.strip();
        if (s.isEmpty()) {
            return null;
        }
        if (INTEGER.matcher(s).matches()) {
            return Long.parseLong(s);
        }
        if (DECIMAL.matcher(s).matches()) {
            return Double.parseDouble(s);
        }
        if (s.equals("true") || s.equals("false")) {
            return Boolean.valueOf(s);
        }
        return s;
    }

    /**
     * Reads one JSON object with its types.
     *
     * @param text the line
     * @param line its number
     * @return field to value: Long, Double, String, Boolean, nested maps and lists; null values left out
     * @throws MalformedLineException if the line is not one JSON object
     */
    static Map<String, Object> parseJsonObject(String text, long line) {
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedLineException(line, "expected a JSON object starting with '{'");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> out = (Map<String, Object>) value(p, JsonToken.START_OBJECT, 0, line);
            if (p.nextToken() != null) {
                throw new MalformedLineException(line, "more than one JSON value on the line");
            }
            return out;
        } catch (JsonProcessingException e) {
            throw new MalformedLineException(line, "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new MalformedLineException(line, "not JSON: " + e.getMessage());
        }
    }

    private static Object value(JsonParser p, JsonToken t, int depth, long line) throws IOException {
        if (depth > 32) {
            throw new MalformedLineException(line, "JSON nested more than 32 levels deep");
        }
        switch (t) {
            case START_OBJECT: {
                Map<String, Object> out = new LinkedHashMap<>();
                for (JsonToken n = p.nextToken(); n != JsonToken.END_OBJECT; n = p.nextToken()) {
                    String name = p.currentName();
                    Object v = value(p, p.nextToken(), depth + 1, line);
                    if (v != null) {
                        out.put(name, v);
                    }
                }
                return out;
            }
            case START_ARRAY: {
                List<Object> out = new ArrayList<>();
                for (JsonToken n = p.nextToken(); n != JsonToken.END_ARRAY; n = p.nextToken()) {
                    out.add(value(p, n, depth + 1, line));
                }
                return out;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    BigInteger big = p.getBigIntegerValue();
                    return big.doubleValue();
                }
                return p.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            default:
                return null;
        }
    }
}

package io.cepheus.examples.cli;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;

/**
 * One line of input as named text values (a CSV row under its header, or a flat JSON object), with typed
 * getters that fail with a {@link MalformedLineException} naming the line, the field and what was expected.
 */
public final class Row {

    private final long line;
    private final Map<String, String> values;
    private final Map<String, Object> typed;

    /**
     * @param line   the line number, 1-based
     * @param values field name to raw text; a missing or empty value means the field is absent
     */
    public Row(long line, Map<String, String> values) {
        this(line, values, null);
    }

    /**
     * @param line   the line number, 1-based
     * @param values field name to raw text, as for {@link #Row(long, Map)}
     * @param typed  the same fields with their JSON types (nested objects as maps), or null when the line had none
     */
    public Row(long line, Map<String, String> values, Map<String, Object> typed) {
        this.line = line;
        this.values = values;
        this.typed = typed;
    }

    /** @return every field as raw text */
    public Map<String, String> values() {
        return values;
    }

    /** @return the fields with their JSON types, or null for a CSV row */
    public Map<String, Object> typed() {
        return typed;
    }

    /** @return the line number, 1-based */
    public long line() {
        return line;
    }

    /**
     * @param field a field name
     * @return its text, trimmed
     */
    public String text(String field) {
        String v = optionalText(field);
        if (v == null) {
            throw problem("missing field \"" + field + "\"");
        }
        return v;
    }

    /**
     * @param field a field name
     * @return its text, trimmed, or null if absent or empty
     */
    public String optionalText(String field) {
        String v = values.get(field);
        if (v == null) {
            return null;
        }
        v = v.trim();
        return v.isEmpty() ? null : v;
    }

    /**
     * @param field a field holding an amount of money: digits with at most two decimals ({@code 12.34})
     * @return the amount in cents
     */
    public long money(String field) {
        String v = text(field);
        try {
            BigDecimal amount = new BigDecimal(v);
            if (amount.scale() > 2) {
                throw problem(field, v, "an amount with at most 2 decimals, e.g. 12.34");
            }
            return amount.movePointRight(2).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw problem(field, v, "an amount, e.g. 12.34");
        }
    }

    /**
     * @param field a field holding a number
     * @return the number
     */
    public double number(String field) {
        String v = text(field);
        try {
            double d = Double.parseDouble(v);
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw problem(field, v, "a finite number");
            }
            return d;
        } catch (NumberFormatException e) {
            throw problem(field, v, "a number, e.g. 98.6");
        }
    }

    /**
     * @param field a field holding {@code true} or {@code false} (any case)
     * @return the value
     */
    public boolean bool(String field) {
        String v = text(field).toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw problem(field, v, "true or false");
        };
    }

    /**
     * @param field a field holding a time: epoch milliseconds ({@code 1740816000000}) or ISO-8601 with a zone
     *              ({@code 2025-03-01T08:00:00Z}, {@code 2025-03-01T09:00:00+01:00})
     * @return epoch milliseconds
     */
    public long time(String field) {
        String v = text(field);
        if (!v.isEmpty() && (Character.isDigit(v.charAt(0)) || v.charAt(0) == '-') && v.indexOf('T') < 0) {
            try {
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw problem(field, v, "epoch milliseconds or an ISO-8601 time such as 2025-03-01T08:00:00Z");
            }
        }
        try {
            return Instant.parse(v).toEpochMilli();
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(v).toInstant().toEpochMilli();
            } catch (DateTimeParseException e2) {
                throw problem(field, v, "epoch milliseconds or an ISO-8601 time such as 2025-03-01T08:00:00Z");
            }
        }
    }

    /**
     * @param field   a field holding one of the constants' names (any case)
     * @param choices the constants, e.g. {@code Grade.values()}
     * @param <C>     the enum
     * @return the constant
     */
    public <C extends Enum<C>> C choice(String field, C[] choices) {
        String v = text(field);
        for (C c : choices) {
            if (c.name().equalsIgnoreCase(v)) {
                return c;
            }
        }
        StringBuilder names = new StringBuilder();
        for (C c : choices) {
            names.append(names.length() == 0 ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT));
        }
        throw problem(field, v, "one of " + names);
    }

    private MalformedLineException problem(String field, String value, String expected) {
        return problem("field \"" + field + "\": '" + value + "' is not " + expected);
    }

    private MalformedLineException problem(String message) {
        return new MalformedLineException(line, message);
    }
}

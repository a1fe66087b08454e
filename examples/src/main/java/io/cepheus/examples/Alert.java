package io.cepheus.examples;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What an example app reports: which rule fired, for which key, when, a readable message and the events
 * that made it fire, oldest first. Immutable; the events are whatever the app matches (logins, payments,
 * readings, other alerts...).
 *
 * @param rule    the rule's name, lower case with dashes ({@code card-testing})
 * @param key     the key the pattern was matched for (user, card, order, rack...)
 * @param time    event time of the alert, epoch milliseconds: the event completing the match, or the deadline
 *                that passed for a non-occurrence
 * @param message one readable sentence, without the time and the rule
 * @param events  the matched events, oldest first
 */
public record Alert(String rule, String key, long time, String message, List<?> events) {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    /** Checks the fields and copies the events. */
    public Alert {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(message, "message");
        events = List.copyOf(events);
        if (events.isEmpty()) {
            throw new IllegalArgumentException("an alert needs the events that raised it");
        }
    }

    /** @return one line for a terminal, e.g. {@code [08:03:05] BRUTE FORCE   user u2001: ...} (UTC time) */
    public String describe() {
        String label = rule.toUpperCase(Locale.ROOT).replace('-', ' ');
        return "[" + CLOCK.format(Instant.ofEpochMilli(time)) + "] " + String.format(Locale.ROOT, "%-13s ", label)
                + message;
    }

    /**
     * @param cents an amount in cents
     * @return it as money, e.g. {@code 1,234.56}
     */
    public static String money(long cents) {
        String sign = cents < 0 ? "-" : "";
        long abs = Math.abs(cents);
        return sign + String.format(Locale.ROOT, "%,d.%02d", abs / 100, abs % 100);
    }

    /**
     * @param millis a span of time
     * @return it for a human, e.g. {@code 3m 5s}, {@code 31s}, {@code 1h 2m}, {@code 1.5s}
     */
    public static String span(long millis) {
        long s = millis / 1000;
        if (s >= 3600) {
            return s / 3600 + "h " + (s % 3600) / 60 + "m";
        }
        if (s >= 60) {
            return s / 60 + "m " + s % 60 + "s";
        }
        if (millis % 1000 != 0) {
            return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
        }
        return s + "s";
    }
}

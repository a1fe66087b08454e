package io.cepheus.examples;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * What the fraud detector reports: which rule fired and the events that made it fire, oldest first.
 *
 * @param rule   the rule
 * @param events the matched events
 */
public record Alert(Rule rule, List<FraudEvent> events) {

    /** The demo's two rules. */
    public enum Rule {
        /** Five failed logins in a row for one user within 10 minutes. */
        BRUTE_FORCE,
        /** A payment under 1.00 followed by one over 500.00 on the same card within 1 minute. */
        CARD_TESTING
    }

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    /** Copies the events; an alert without events makes no sense. */
    public Alert {
        events = List.copyOf(events);
        if (events.isEmpty()) {
            throw new IllegalArgumentException("an alert needs the events that raised it");
        }
    }

    /** @return the first event */
    public FraudEvent first() {
        return events.get(0);
    }

    /** @return the event that completed the match */
    public FraudEvent last() {
        return events.get(events.size() - 1);
    }

    /** @return one readable line, e.g. {@code [08:14:03] BRUTE FORCE   user u2001 (grade B): ...} */
    public String describe() {
        String when = "[" + CLOCK.format(Instant.ofEpochMilli(last().ts())) + "] ";
        String span = seconds(last().ts() - first().ts());
        FraudEvent who = first();
        if (rule == Rule.BRUTE_FORCE) {
            return when + "BRUTE FORCE   user " + who.user() + " (grade " + who.grade() + "): " + events.size()
                    + " failed logins in a row within " + span;
        }
        return when + "CARD TESTING  card " + who.card() + " of " + who.user() + " (grade " + who.grade() + "): "
                + money(first().amountCents()) + " then " + money(last().amountCents()) + " within " + span;
    }

    private static String seconds(long millis) {
        Duration d = Duration.ofMillis(millis);
        return d.toMinutes() > 0 ? d.toMinutes() + "m " + d.toSecondsPart() + "s" : d.toSeconds() + "s";
    }

    static String money(long cents) {
        return String.format(Locale.ROOT, "%,d.%02d", cents / 100, cents % 100);
    }
}

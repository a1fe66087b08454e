package io.cepheus.examples.apps;

import io.cepheus.examples.Alert;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Card testing: a fraudster checks a stolen card with a tiny payment, then spends big. A payment under 1.00
 * followed by one over 500.00 on the same card within 1 minute. {@code followedBy} (relaxed contiguity) lets
 * ordinary payments sit in between; {@code skipPastLastEvent} makes several probes before one big charge
 * one alert, from the first probe.
 */
public final class CardTesting {

    /** The rule name of the alerts. */
    public static final String RULE = "card-testing";

    /**
     * A card payment.
     *
     * @param card        the card charged
     * @param amountCents the amount in cents (12_34 is 12.34)
     * @param time        event time, epoch milliseconds
     */
    public record Payment(String card, long amountCents, long time) {
    }

    private CardTesting() {
    }

    /** @return a payment under 1.00, then one over 500.00, within 1 minute */
    public static Pattern<Payment> pattern() {
        return Pattern.<Payment>begin("probe", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(p -> p.amountCents() < 1_00)
                .followedBy("charge")
                .where(p -> p.amountCents() > 500_00)
                .within(Duration.ofMinutes(1));
    }

    /**
     * Registers the pattern, matched per card.
     *
     * @param engine an engine not started yet, whose event time is {@link Payment#time()}
     * @param alerts receives the alerts (on the shard's thread)
     */
    public static void register(CepEngine<Payment> engine, Consumer<Alert> alerts) {
        engine.keyBy(Payment::card).pattern(pattern()).select((card, match, ts) -> {
            Payment probe = match.events("probe").get(0);
            Payment charge = match.events("charge").get(0);
            alerts.accept(new Alert(RULE, probe.card(), charge.time(), "card " + probe.card() + ": "
                    + Alert.money(probe.amountCents()) + " then " + Alert.money(charge.amountCents()) + " within "
                    + Alert.span(charge.time() - probe.time()), List.of(probe, charge)));
        });
    }
}

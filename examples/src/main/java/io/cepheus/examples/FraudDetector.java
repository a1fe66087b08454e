package io.cepheus.examples;

import io.cepheus.examples.Alert.Rule;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The demo's two fraud rules as Cepheus patterns, each matched per key: logins per user, payments per card.
 * Feed events in time order with {@link #accept}, then call {@link #finish} once at the end.
 */
public final class FraudDetector {

    /**
     * Five failed logins in a row for one user, the first and the fifth less than 10 minutes apart. After an
     * alert the streak starts over ({@code skipPastLastEvent}), so a burst of seven failures alerts once, not
     * three times.
     *
     * @return the pattern, to be matched per user over login events
     */
    public static Pattern<FraudEvent> bruteForceLogins() {
        return Pattern.<FraudEvent>begin("failed", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(FraudEvent::isFailedLogin)
                .times(5).consecutive()
                .within(Duration.ofMinutes(10));
    }

    /**
     * Card testing: a fraudster checks a stolen card with a tiny payment, then spends big. A payment under
     * 1.00 followed by one over 500.00 on the same card within 1 minute; several probes before one big
     * charge give one alert.
     *
     * @return the pattern, to be matched per card over payment events
     */
    public static Pattern<FraudEvent> cardTesting() {
        return Pattern.<FraudEvent>begin("probe", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(p -> p.amountCents() < 1_00)
                .followedBy("charge")
                .where(p -> p.amountCents() > 500_00)
                .within(Duration.ofMinutes(1));
    }

    private final KeyedMatcher<FraudEvent> loginsByUser;
    private final KeyedMatcher<FraudEvent> paymentsByCard;

    /** @param alerts called for each alert, as soon as it is known */
    public FraudDetector(Consumer<Alert> alerts) {
        loginsByUser = new KeyedMatcher<>(bruteForceLogins(), FraudEvent::user,
                match -> alerts.accept(new Alert(Rule.BRUTE_FORCE, match.allEvents())));
        paymentsByCard = new KeyedMatcher<>(cardTesting(), FraudEvent::card,
                match -> alerts.accept(new Alert(Rule.CARD_TESTING, match.allEvents())));
    }

    /** @param event the next event; events must come in time order */
    public void accept(FraudEvent event) {
        // each rule sees only its kind of event, so a payment does not break a streak of failed logins
        switch (event.kind()) {
            case LOGIN -> loginsByUser.process(event, event.ts());
            case PAYMENT -> paymentsByCard.process(event, event.ts());
        }
    }

    /** The stream has ended: report anything still pending. */
    public void finish() {
        loginsByUser.finish();
        paymentsByCard.finish();
    }
}

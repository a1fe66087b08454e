package io.cepheus.examples;

import io.cepheus.examples.FraudEvent.Kind;
import io.cepheus.nfa.Match;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.KeyedStream;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The demo's two fraud rules over one stream of logins and payments, on the streaming engine: logins are
 * matched per user, payments per card. Both rules share one keyed stream whose key says which kind of
 * account an event belongs to, so a user's logins and a card's payments never meet in one partial match.
 *
 * <pre>{@code
 * CepEngine<FraudEvent> engine = CepEngine.<FraudEvent>builder().watermarks(...).build();
 * FraudDetector.register(engine, alert -> System.out.println(alert.describe()));
 * }</pre>
 */
public final class FraudDetector {

    /** The rule name of {@link #bruteForceLogins()} alerts. */
    public static final String BRUTE_FORCE = "brute-force";
    /** The rule name of {@link #cardTesting()} alerts. */
    public static final String CARD_TESTING = "card-testing";

    /**
     * Which account an event is matched for: its user for a login, its card for a payment.
     *
     * @param kind the kind of event, so a user and a card with the same id stay apart
     * @param id   the user or the card
     */
    public record Account(Kind kind, String id) {
    }

    private FraudDetector() {
    }

    /**
     * Five failed logins in a row for one user, the first and the fifth less than 10 minutes apart. After an
     * alert the streak starts over ({@code skipPastLastEvent}), so a burst of seven failures alerts once, not
     * three times.
     *
     * @return the pattern, matched per user over login events
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
     * @return the pattern, matched per card over payment events
     */
    public static Pattern<FraudEvent> cardTesting() {
        return Pattern.<FraudEvent>begin("probe", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(p -> p.amountCents() < 1_00)
                .followedBy("charge")
                .where(p -> p.amountCents() > 500_00)
                .within(Duration.ofMinutes(1));
    }

    /**
     * Registers both rules on an engine that was not started yet.
     *
     * @param engine the engine; its event time must be the events' {@code ts}
     * @param alerts receives every alert, on the thread of the shard that raised it
     */
    public static void register(CepEngine<FraudEvent> engine, Consumer<Alert> alerts) {
        KeyedStream<FraudEvent> byAccount = engine.keyBy(FraudDetector::accountOf);
        byAccount.pattern(bruteForceLogins())
                .select((account, match, ts) -> alerts.accept(bruteForceAlert(match.events("failed"))));
        byAccount.pattern(cardTesting())
                .select((account, match, ts) -> alerts.accept(cardTestingAlert(only(match, "probe"),
                        only(match, "charge"))));
    }

    /**
     * @param event a login or a payment
     * @return the account it is matched for
     */
    public static Account accountOf(FraudEvent event) {
        return new Account(event.kind(), event.kind() == Kind.LOGIN ? event.user() : event.card());
    }

    /**
     * @param failures the failed logins of one user, oldest first
     * @return the brute-force alert they raise
     */
    public static Alert bruteForceAlert(List<FraudEvent> failures) {
        FraudEvent first = failures.get(0);
        FraudEvent last = failures.get(failures.size() - 1);
        return new Alert(BRUTE_FORCE, first.user(), last.ts(), "user " + first.user() + " (grade " + first.grade()
                + "): " + failures.size() + " failed logins in a row within " + Alert.span(last.ts() - first.ts()),
                failures);
    }

    /**
     * @param probe  the tiny payment
     * @param charge the big one on the same card
     * @return the card-testing alert they raise
     */
    public static Alert cardTestingAlert(FraudEvent probe, FraudEvent charge) {
        return new Alert(CARD_TESTING, probe.card(), charge.ts(), "card " + probe.card() + " of " + probe.user()
                + " (grade " + probe.grade() + "): " + Alert.money(probe.amountCents()) + " then "
                + Alert.money(charge.amountCents()) + " within " + Alert.span(charge.ts() - probe.ts()),
                List.of(probe, charge));
    }

    private static FraudEvent only(Match<FraudEvent> match, String stage) {
        return match.events(stage).get(0);
    }
}

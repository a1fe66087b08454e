package io.cepheus.examples.apps;

import io.cepheus.examples.Alert;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.IterativeCondition;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Fast checkout, the signature of a checkout bot: a run of add-to-cart events, then a payment, within 5
 * minutes, the payment less than 30 s after the <em>last</em> cart event. The 5 minutes are a window
 * ({@code within}); the 30 s depend on the partial match, so they are an iterative condition that reads the
 * cart events taken so far.
 *
 * <p>The cart events are {@code consecutive()} and the payment comes {@code next}: the cart stage then holds
 * exactly the run of cart events before the payment, so "the last cart event" is the one just before it
 * (with relaxed contiguity, shorter runs that skip later cart events would be tried too).
 */
public final class FastCheckout {

    /** The rule name of the alerts. */
    public static final String RULE = "fast-checkout";
    /** The longest a bot needs from the last cart event to the payment. */
    public static final Duration PAYMENT_DELAY = Duration.ofSeconds(30);

    /** What a shopper does. */
    public enum Action {
        /** Adds an item to the cart. */
        CART,
        /** Pays. */
        PAYMENT
    }

    /**
     * One step of a shopping session.
     *
     * @param user   the shopper
     * @param action what they did
     * @param time   event time, epoch milliseconds
     */
    public record ShopEvent(String user, Action action, long time) {
    }

    private FastCheckout() {
    }

    /** The payment comes less than 30 s after the last cart event of the partial match. */
    static final IterativeCondition<ShopEvent> SOON_AFTER_LAST_CART = (payment, ctx) -> {
        List<ShopEvent> carts = ctx.eventsForPattern("cart");
        return payment.time() - carts.get(carts.size() - 1).time() < PAYMENT_DELAY.toMillis();
    };

    /** @return cart events, then a payment within 30 s of the last one, all within 5 minutes */
    public static Pattern<ShopEvent> pattern() {
        return Pattern.<ShopEvent>begin("cart", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(e -> e.action() == Action.CART)
                .oneOrMore().consecutive()
                .next("payment")
                .where(e -> e.action() == Action.PAYMENT)
                .where(SOON_AFTER_LAST_CART)
                .within(Duration.ofMinutes(5));
    }

    /**
     * Registers the pattern, matched per user.
     *
     * @param engine an engine not started yet, whose event time is {@link ShopEvent#time()}
     * @param alerts receives the alerts (on the shard's thread)
     */
    public static void register(CepEngine<ShopEvent> engine, Consumer<Alert> alerts) {
        engine.keyBy(ShopEvent::user).pattern(pattern()).select((user, match, ts) -> {
            List<ShopEvent> carts = match.events("cart");
            ShopEvent payment = match.events("payment").get(0);
            List<ShopEvent> events = new ArrayList<>(carts);
            events.add(payment);
            alerts.accept(new Alert(RULE, payment.user(), payment.time(), "user " + payment.user() + ": "
                    + carts.size() + (carts.size() == 1 ? " cart event" : " cart events") + " then paid " + Alert.span(payment.time()
                    - carts.get(carts.size() - 1).time()) + " after the last, " + Alert.span(payment.time()
                    - carts.get(0).time()) + " after the first", events));
        });
    }
}

package io.cepheus.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.examples.Alert;
import io.cepheus.examples.EngineRun;
import io.cepheus.examples.apps.FastCheckout.Action;
import io.cepheus.examples.apps.FastCheckout.ShopEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cart events then a payment within 5 minutes, the payment within 30 s of the last cart event, exactly. */
class FastCheckoutTest {

    private static final long T0 = Instant.parse("2025-03-01T08:00:00Z").toEpochMilli();

    private static ShopEvent cart(String user, long millis) {
        return new ShopEvent(user, Action.CART, T0 + millis);
    }

    private static ShopEvent pay(String user, long millis) {
        return new ShopEvent(user, Action.PAYMENT, T0 + millis);
    }

    private static List<Alert> run(List<ShopEvent> events) {
        List<ShopEvent> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingLong(ShopEvent::time));
        return EngineRun.alertsOf(sorted, ShopEvent::time, FastCheckout::register);
    }

    @Test
    void aBotFillsTheCartAndPaysAtOnce() {
        List<ShopEvent> bot = List.of(cart("bot", 0), cart("bot", 5_000), cart("bot", 10_000), pay("bot", 20_000));

        assertEquals(List.of(new Alert(FastCheckout.RULE, "bot", T0 + 20_000,
                "user bot: 3 cart events then paid 10s after the last, 20s after the first", bot)), run(bot));
    }

    @Test
    void theThirtySecondsCountFromTheLastCartEventNotTheFirst() {
        // the first cart event is 110 s before the payment, the last one 10 s: a fast checkout
        List<ShopEvent> events = List.of(cart("ann", 0), cart("ann", 100_000), pay("ann", 110_000));

        assertEquals(List.of(events), run(events).stream().map(Alert::events).toList());
    }

    @Test
    void thePaymentMustComeLessThanThirtySecondsAfterTheLastCartEvent() {
        List<ShopEvent> events = List.of(
                cart("slow", 0), pay("slow", 40_000),
                cart("edge", 0), pay("edge", 30_000),     // exactly 30 s: not less
                cart("fast", 0), pay("fast", 29_999));

        assertEquals(List.of("fast"), run(events).stream().map(Alert::key).toList());
    }

    @Test
    void aSessionOverFiveMinutesAlertsForItsCartEventsInsideTheWindow() {
        ShopEvent c1 = cart("long", 0);
        ShopEvent c2 = cart("long", 200_000);
        ShopEvent c3 = cart("long", 290_000);
        ShopEvent p = pay("long", 310_000);

        // c1..p spans 310 s, over the 5 minutes; c2..p does not
        assertEquals(List.of(List.of(c2, c3, p)), run(List.of(c1, c2, c3, p)).stream().map(Alert::events).toList());
    }

    @Test
    void aPaymentWithoutCartOrBeforeItIsNoCheckout() {
        assertEquals(List.of(), run(List.of(pay("x", 0), cart("x", 1_000), pay("y", 0))));
    }
}

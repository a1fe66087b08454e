package io.cepheus.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.examples.Alert;
import io.cepheus.examples.EngineRun;
import io.cepheus.examples.apps.CardTesting.Payment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A tiny payment then a big one on the same card within a minute, exactly. */
class CardTestingTest {

    private static final long T0 = Instant.parse("2025-03-01T08:00:00Z").toEpochMilli();

    private static Payment pay(String card, long cents, int second) {
        return new Payment(card, cents, T0 + second * 1_000L);
    }

    private static List<Alert> run(List<Payment> payments) {
        List<Payment> sorted = new ArrayList<>(payments);
        sorted.sort(Comparator.comparingLong(Payment::time));
        return EngineRun.alertsOf(sorted, Payment::time, CardTesting::register);
    }

    @Test
    void aProbeThenABigChargeWithOrdinaryPaymentsBetween() {
        Payment probe = pay("c1", 50, 0);
        Payment coffee = pay("c1", 3_50, 10);
        Payment charge = pay("c1", 600_00, 30);

        assertEquals(List.of(new Alert(CardTesting.RULE, "c1", charge.time(), "card c1: 0.50 then 600.00 within 30s",
                List.of(probe, charge))), run(List.of(probe, coffee, charge)));
    }

    @Test
    void severalProbesGiveOneAlertFromTheFirst() {
        Payment probe1 = pay("c4", 10, 0);
        Payment probe2 = pay("c4", 20, 5);
        Payment charge = pay("c4", 900_00, 20);
        Payment charge2 = pay("c4", 950_00, 25);

        List<Alert> alerts = run(List.of(probe1, probe2, charge, charge2));
        assertEquals(1, alerts.size(), alerts.toString());
        assertEquals(List.of(probe1, charge), alerts.get(0).events());
    }

    @Test
    void nearMissesDoNotAlert() {
        List<Payment> payments = List.of(
                pay("late", 50, 0), pay("late", 600_00, 60),        // exactly a minute: the window is half-open
                pay("exact", 99, 0), pay("exact", 500_00, 10),      // 500.00 is not over 500.00
                pay("dollar", 1_00, 0), pay("dollar", 700_00, 10),  // 1.00 is not under 1.00
                pay("c6", 10, 0), pay("c7", 800_00, 10),            // two different cards
                pay("c8", 800_00, 0), pay("c8", 10, 10));           // the wrong order

        assertEquals(List.of(), run(payments));
    }
}

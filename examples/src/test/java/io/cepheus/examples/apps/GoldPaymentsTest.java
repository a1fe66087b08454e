package io.cepheus.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.examples.Alert;
import io.cepheus.examples.EngineRun;
import io.cepheus.examples.apps.GoldPayments.Grade;
import io.cepheus.examples.apps.GoldPayments.Payment;
import io.cepheus.pattern.Pattern;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** High-value payments of GOLD customers: both conditions must hold. */
class GoldPaymentsTest {

    private static final long T0 = Instant.parse("2025-03-01T08:00:00Z").toEpochMilli();

    private static final List<Payment> PAYMENTS = List.of(
            new Payment("ada", Grade.GOLD, 10_000_00, T0),            // exactly 10,000.00: alert
            new Payment("ada", Grade.GOLD, 9_999_99, T0 + 1_000),     // a cent short
            new Payment("bo", Grade.SILVER, 50_000_00, T0 + 2_000),   // not GOLD
            new Payment("cy", Grade.STANDARD, 10, T0 + 3_000),        // neither
            new Payment("ada", Grade.GOLD, 12_345_67, T0 + 4_000));   // alert

    @Test
    void alertsOnlyWhenBothConditionsHold() {
        List<Alert> alerts = EngineRun.alertsOf(PAYMENTS, Payment::time, GoldPayments::register);

        assertEquals(List.of(
                new Alert(GoldPayments.RULE, "ada", T0, "GOLD customer ada paid 10,000.00", List.of(PAYMENTS.get(0))),
                new Alert(GoldPayments.RULE, "ada", T0 + 4_000, "GOLD customer ada paid 12,345.67",
                        List.of(PAYMENTS.get(4)))), alerts);
    }

    @Test
    void twoWheresMeanTheSameAsConditionAnd() {
        Pattern<Payment> chained = Pattern.<Payment>begin("payment")
                .where(GoldPayments.HIGH_VALUE).where(GoldPayments.GOLD_CUSTOMER);
        List<Alert> viaChained = EngineRun.alertsOf(PAYMENTS, Payment::time, (engine, sink) -> engine
                .keyBy(Payment::user).pattern(chained)
                .select((user, match, ts) -> sink.accept(new Alert("chained", (String) user, ts, "-",
                        match.allEvents()))));

        assertEquals(List.of(PAYMENTS.get(0), PAYMENTS.get(4)),
                viaChained.stream().map(a -> a.events().get(0)).toList());
    }
}

package io.cepheus.examples.apps;

import io.cepheus.examples.Alert;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.SimpleCondition;
import io.cepheus.runtime.CepEngine;
import java.util.List;
import java.util.function.Consumer;

/**
 * High-value payments by GOLD customers (for a personal call from their account manager): an amount of at
 * least 10,000.00 and the customer's grade GOLD. A one-stage pattern whose condition combines two named
 * conditions with {@link Condition#and}; {@code .where(HIGH_VALUE).where(GOLD_CUSTOMER)} means the same.
 */
public final class GoldPayments {

    /** The rule name of the alerts. */
    public static final String RULE = "gold-payment";

    /** A customer's grade. */
    public enum Grade {
        /** Most customers. */
        STANDARD,
        /** Frequent customers. */
        SILVER,
        /** The best customers. */
        GOLD
    }

    /**
     * A payment.
     *
     * @param user        the customer
     * @param grade       the customer's grade
     * @param amountCents the amount in cents (12_34 is 12.34)
     * @param time        event time, epoch milliseconds
     */
    public record Payment(String user, Grade grade, long amountCents, long time) {
    }

    /** 10,000.00 or more. */
    public static final SimpleCondition<Payment> HIGH_VALUE = p -> p.amountCents() >= 10_000_00;
    /** Paid by a GOLD customer. */
    public static final SimpleCondition<Payment> GOLD_CUSTOMER = p -> p.grade() == Grade.GOLD;

    private GoldPayments() {
    }

    /** @return one payment that is high-value and by a GOLD customer */
    public static Pattern<Payment> pattern() {
        return Pattern.<Payment>begin("payment").where(Condition.and(HIGH_VALUE, GOLD_CUSTOMER));
    }

    /**
     * Registers the pattern, matched per customer.
     *
     * @param engine an engine not started yet, whose event time is {@link Payment#time()}
     * @param alerts receives the alerts (on the shard's thread)
     */
    public static void register(CepEngine<Payment> engine, Consumer<Alert> alerts) {
        engine.keyBy(Payment::user).pattern(pattern()).select((user, match, ts) -> {
            Payment p = match.events("payment").get(0);
            alerts.accept(new Alert(RULE, p.user(), p.time(), "GOLD customer " + p.user() + " paid "
                    + Alert.money(p.amountCents()), List.of(p)));
        });
    }
}

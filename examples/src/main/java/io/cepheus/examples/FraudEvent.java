package io.cepheus.examples;

import java.util.Objects;

/**
 * One event of the demo's stream: a login attempt or a card payment.
 *
 * @param kind        what happened
 * @param user        the account
 * @param card        the card charged; null for logins
 * @param success     whether the login succeeded or the payment was authorised
 * @param amountCents the payment amount in cents (12_34 is 12.34); 0 for logins
 * @param grade       the account's risk grade, "A" (long-standing) to "D" (new or flagged before)
 * @param ts          event time, epoch milliseconds
 */
public record FraudEvent(Kind kind, String user, String card, boolean success, long amountCents, String grade,
        long ts) {

    /** The two kinds of event. */
    public enum Kind {
        /** A login attempt. */
        LOGIN,
        /** A card payment. */
        PAYMENT
    }

    /** Checks that logins carry no card and payments do. */
    public FraudEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(grade, "grade");
        if ((kind == Kind.PAYMENT) != (card != null)) {
            throw new IllegalArgumentException("a payment needs a card and a login has none: " + kind + " " + card);
        }
    }

    /**
     * @param ts      event time
     * @param user    the account
     * @param grade   the account's risk grade
     * @param success whether the password was right
     * @return a login attempt
     */
    public static FraudEvent login(long ts, String user, String grade, boolean success) {
        return new FraudEvent(Kind.LOGIN, user, null, success, 0, grade, ts);
    }

    /**
     * @param ts          event time
     * @param user        the card holder
     * @param card        the card charged
     * @param grade       the holder's risk grade
     * @param amountCents the amount in cents
     * @return an authorised payment
     */
    public static FraudEvent payment(long ts, String user, String card, String grade, long amountCents) {
        return new FraudEvent(Kind.PAYMENT, user, card, true, amountCents, grade, ts);
    }

    /** @return whether this is a login with the wrong password */
    public boolean isFailedLogin() {
        return kind == Kind.LOGIN && !success;
    }
}

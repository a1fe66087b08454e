package io.cepheus.benchmarks.compare;

/**
 * An element of the interval-join workload: an order or a payment, keyed by customer. Cepheus's engine takes both
 * as one stream and tells the sides apart by class; Flink's two-input operator takes each on its own input.
 */
public sealed interface JoinEvent permits JoinEvent.Order, JoinEvent.Payment {

    /** @return the customer, {@code 0 <= key < JoinInput.KEYS} */
    int key();

    /** @return the event time in epoch milliseconds */
    long ts();

    /**
     * An order.
     *
     * @param id  the order id (its rank in order time, from 0)
     * @param key the customer
     * @param ts  the order time
     */
    record Order(long id, int key, long ts) implements JoinEvent {
    }

    /**
     * A payment for an order.
     *
     * @param orderId the order it pays
     * @param key     the order's customer
     * @param ts      the payment time
     */
    record Payment(long orderId, int key, long ts) implements JoinEvent {
    }
}

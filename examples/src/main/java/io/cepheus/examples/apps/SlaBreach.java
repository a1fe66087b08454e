package io.cepheus.examples.apps;

import io.cepheus.examples.Alert;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * SLA breach, a non-occurrence: an order placed and not shipped within 1 hour. Two formulations give the
 * same breaches:
 * <ul>
 *   <li>{@link #shippedInTime()} with the <em>timeout side output</em>: the pattern "placed, then shipped,
 *       within 1 hour" matches the orders that made it; the partial matches whose window closed are exactly
 *       the breaches, reported by the engine when the watermark passes {@code placed + 1 h}
 *       ({@link #register});</li>
 *   <li>{@link #notShippedInTime()} with a trailing {@code notFollowedBy} and a window: the pattern itself
 *       matches the breach, released when the window closes without a shipment ({@link #registerAbsence}).</li>
 * </ul>
 * Both report the breach at the deadline, {@code placed + 1 h}. A shipment exactly at the deadline is late
 * (windows are half-open: {@code shipped - placed < 1 h}).
 */
public final class SlaBreach {

    /** The rule name of the alerts. */
    public static final String RULE = "sla-breach";
    /** How long shipping may take. */
    public static final Duration SLA = Duration.ofHours(1);

    /** An order's progress. */
    public enum Status {
        /** The customer placed the order. */
        PLACED,
        /** The order left the warehouse. */
        SHIPPED
    }

    /**
     * A change of an order's status.
     *
     * @param order  the order id
     * @param status its new status
     * @param time   event time, epoch milliseconds
     */
    public record OrderEvent(String order, Status status, long time) {
    }

    private SlaBreach() {
    }

    /** @return placed, then shipped within 1 hour; its timed-out partial matches are the breaches */
    public static Pattern<OrderEvent> shippedInTime() {
        return Pattern.<OrderEvent>begin("placed").where(e -> e.status() == Status.PLACED)
                .followedBy("shipped").where(e -> e.status() == Status.SHIPPED)
                .within(SLA);
    }

    /** @return placed, and not shipped within 1 hour: its matches are the breaches */
    public static Pattern<OrderEvent> notShippedInTime() {
        return Pattern.<OrderEvent>begin("placed").where(e -> e.status() == Status.PLACED)
                .notFollowedBy("shipped").where(e -> e.status() == Status.SHIPPED)
                .within(SLA);
    }

    /**
     * Registers {@link #shippedInTime()} per order; breaches come from its timeouts.
     *
     * @param engine an engine not started yet, whose event time is {@link OrderEvent#time()}
     * @param alerts receives the breach alerts (on the shard's thread)
     */
    public static void register(CepEngine<OrderEvent> engine, Consumer<Alert> alerts) {
        engine.keyBy(OrderEvent::order).pattern(shippedInTime())
                .select((order, match, ts) -> { /* shipped in time: nothing to report */ })
                .timeouts((order, partial, deadline) -> alerts.accept(breach(partial.events("placed").get(0))));
    }

    /**
     * Registers {@link #notShippedInTime()} per order; breaches are its matches.
     *
     * @param engine an engine not started yet, whose event time is {@link OrderEvent#time()}
     * @param alerts receives the breach alerts (on the shard's thread)
     */
    public static void registerAbsence(CepEngine<OrderEvent> engine, Consumer<Alert> alerts) {
        engine.keyBy(OrderEvent::order).pattern(notShippedInTime())
                .select((order, match, ts) -> alerts.accept(breach(match.events("placed").get(0))));
    }

    private static Alert breach(OrderEvent placed) {
        return new Alert(RULE, placed.order(), placed.time() + SLA.toMillis(), "order " + placed.order()
                + " not shipped within " + Alert.span(SLA.toMillis()) + " of being placed", List.of(placed));
    }
}

package io.cepheus.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.examples.Alert;
import io.cepheus.examples.EngineRun;
import io.cepheus.examples.apps.SlaBreach.OrderEvent;
import io.cepheus.examples.apps.SlaBreach.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Orders not shipped within an hour, from the timeout side output and from notFollowedBy, exactly. */
class SlaBreachTest {

    private static final long T0 = Instant.parse("2025-03-01T08:00:00Z").toEpochMilli();
    private static final long MINUTE = 60_000;
    private static final long HOUR = 60 * MINUTE;

    private static OrderEvent placed(String order, long millis) {
        return new OrderEvent(order, Status.PLACED, T0 + millis);
    }

    private static OrderEvent shipped(String order, long millis) {
        return new OrderEvent(order, Status.SHIPPED, T0 + millis);
    }

    private static List<OrderEvent> sorted(List<OrderEvent> events) {
        List<OrderEvent> out = new ArrayList<>(events);
        out.sort(Comparator.comparingLong(OrderEvent::time));
        return out;
    }

    private static final List<OrderEvent> ORDERS = sorted(List.of(
            placed("o1", 0), shipped("o1", 30 * MINUTE),                    // on time
            placed("o2", 0),                                                // never shipped
            placed("o3", 10 * MINUTE), shipped("o3", 70 * MINUTE),          // exactly an hour: late
            placed("o4", 20 * MINUTE), shipped("o4", 2 * HOUR),             // shipped, but late
            placed("o5", 30 * MINUTE), shipped("o5", 30 * MINUTE + HOUR - 1))); // a millisecond to spare

    private static Alert breach(OrderEvent placed) {
        return new Alert(SlaBreach.RULE, placed.order(), placed.time() + HOUR,
                "order " + placed.order() + " not shipped within 1h 0m of being placed", List.of(placed));
    }

    @Test
    void theTimedOutOrdersAreTheBreaches() {
        List<Alert> alerts = EngineRun.alertsOf(ORDERS, OrderEvent::time, SlaBreach::register);

        assertEquals(List.of(breach(placed("o2", 0)), breach(placed("o3", 10 * MINUTE)),
                breach(placed("o4", 20 * MINUTE))), alerts);
    }

    @Test
    void aBreachIsReportedWhenTheWatermarkPassesItsDeadlineNotAtTheEnd() {
        EngineRun<OrderEvent> run = new EngineRun<>(OrderEvent::time, SlaBreach::register);
        run.send(List.of(placed("o2", 0), placed("o6", 5 * MINUTE)));
        run.watermark(T0 + HOUR - 1);
        assertEquals(List.of(), run.alerts());
        run.watermark(T0 + HOUR);
        assertEquals(List.of(breach(placed("o2", 0))), run.alerts());
        assertEquals(2, run.finish().size());
    }

    @Test
    void notFollowedByWithAWindowGivesTheSameBreaches() {
        List<Alert> viaTimeouts = EngineRun.alertsOf(ORDERS, OrderEvent::time, SlaBreach::register);
        List<Alert> viaAbsence = EngineRun.alertsOf(ORDERS, OrderEvent::time, SlaBreach::registerAbsence);

        assertEquals(viaTimeouts, viaAbsence);
    }

    @Test
    void bothFormulationsAgreeOnAGeneratedStream() {
        long seed = 20250301L;
        SplittableRandom rng = new SplittableRandom(seed);
        List<OrderEvent> events = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            String order = "o" + i;
            long placedAt = rng.nextLong(24 * HOUR);
            events.add(placed(order, placedAt));
            int fate = rng.nextInt(10);
            if (fate < 6) {
                events.add(shipped(order, placedAt + rng.nextLong(HOUR)));              // in time
            } else if (fate < 9) {
                events.add(shipped(order, placedAt + HOUR + rng.nextLong(2 * HOUR)));   // late
            } // else never shipped
        }
        events = sorted(events);

        List<Alert> viaTimeouts = sortedByKey(EngineRun.alertsOf(events, OrderEvent::time, SlaBreach::register));
        List<Alert> viaAbsence = sortedByKey(EngineRun.alertsOf(events, OrderEvent::time,
                SlaBreach::registerAbsence));

        assertTrue(viaTimeouts.size() > 500, "seed " + seed + ": only " + viaTimeouts.size() + " breaches");
        assertEquals(viaTimeouts, viaAbsence, "seed " + seed);
    }

    private static List<Alert> sortedByKey(List<Alert> alerts) {
        List<Alert> out = new ArrayList<>(alerts);
        out.sort(Comparator.comparing(Alert::key));
        return out;
    }
}

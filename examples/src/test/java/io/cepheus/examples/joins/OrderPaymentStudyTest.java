package io.cepheus.examples.joins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The published figures of the order–payment study, reproduced through the engine's interval join. */
class OrderPaymentStudyTest {

    @Test
    void reproducesThePublishedMatchCountsAndReportsUnpaidOrders() {
        List<OrderPaymentStudy.Event> events = OrderPaymentStudy.load();
        assertEquals(10_000, events.stream().filter(e -> e instanceof OrderPaymentStudy.Order).count());
        assertEquals(OrderPaymentStudy.PAID_ORDERS,
                events.stream().filter(e -> e instanceof OrderPaymentStudy.Payment).count());
        List<OrderPaymentStudy.Row> rows = OrderPaymentStudy.run(events);
        long[] matched = {5_407, 8_469, 8_615, 9_010};
        long[] unpaid = {4_593, 1_531, 1_385, 990};
        double[] estimate = {6.9, 34.7, 104.2, 416.7};
        for (int i = 0; i < rows.size(); i++) {
            OrderPaymentStudy.Row r = rows.get(i);
            assertEquals(matched[i], r.matched(), "matched at R = " + r.minutes());
            assertEquals(unpaid[i], r.unpaid(), "unpaid at R = " + r.minutes());
            assertEquals(estimate[i], r.estimate(), 0.05, "the publication's estimate at R = " + r.minutes());
            assertTrue(r.peakHeldOrders() >= r.avgHeldOrders() && r.peakHeldPayments() >= r.avgHeldPayments());
        }
        // held orders: R plus the watermark's lag, so above the estimate where the day's start does not dominate
        for (int i = 0; i < 3; i++) {
            assertTrue(rows.get(i).avgHeldOrders() > estimate[i], rows.get(i).toString());
        }
        // both sides are buffered: payments wait for the lagging watermark too
        assertTrue(rows.get(0).avgHeldPayments() > 0, rows.get(0).toString());
        String table = OrderPaymentStudy.table(events, rows);
        assertTrue(table.contains("5,407 (60.0%)") && table.contains("8,469 (94.0%)")
                && table.contains("8,615 (95.6%)") && table.contains("9,010 (100.0%)"), table);
    }
}

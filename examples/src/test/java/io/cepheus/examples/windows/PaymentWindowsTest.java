package io.cepheus.examples.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PaymentWindowsTest {

    @Test
    void theThreeAggregationsOfTheSamplePayments() {
        assertEquals(List.of(
                "largest u1 [960000,1020000) 10.0 @1019999",
                "largest u2 [1020000,1080000) 3.0 @1079999",
                "session (u1, 1000000, 1610000, 2, 17.50) @1609999",
                "session (u2, 1050000, 1650000, 1, 3.00) @1649999",
                "sliding u1 [720000,1020000) sum=17.50 avg=8.75 @1019999",
                "sliding u1 [780000,1080000) sum=17.50 avg=8.75 @1079999",
                "sliding u1 [840000,1140000) sum=17.50 avg=8.75 @1139999",
                "sliding u1 [900000,1200000) sum=17.50 avg=8.75 @1199999",
                "sliding u1 [960000,1260000) sum=17.50 avg=8.75 @1259999",
                "sliding u2 [780000,1080000) sum=3.00 avg=3.00 @1079999",
                "sliding u2 [840000,1140000) sum=3.00 avg=3.00 @1139999",
                "sliding u2 [900000,1200000) sum=3.00 avg=3.00 @1199999",
                "sliding u2 [960000,1260000) sum=3.00 avg=3.00 @1259999",
                "sliding u2 [1020000,1320000) sum=3.00 avg=3.00 @1319999"),
                PaymentWindows.run(PaymentWindows.PAYMENTS));
    }

    /**
     * The first two payments swapped (u1's 10.0 arrives after its 7.5, 10 s later in event time): the same results.
     * The run is short, so its periodic watermark hardly moves before the end of the input flushes every window;
     * what this pins down is that the windows' contents and order of output do not depend on arrival order.
     */
    @Test
    void theOrderOfArrivalDoesNotChangeTheResults() {
        List<PaymentWindows.Payment> reversed = List.of(PaymentWindows.PAYMENTS.get(1), PaymentWindows.PAYMENTS.get(0),
                PaymentWindows.PAYMENTS.get(2));
        assertEquals(PaymentWindows.run(PaymentWindows.PAYMENTS), PaymentWindows.run(reversed));
    }
}

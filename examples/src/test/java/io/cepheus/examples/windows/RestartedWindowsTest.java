package io.cepheus.examples.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.examples.windows.PaymentWindows.Payment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The restart example: two engines across a live snapshot give exactly the results of one that never stopped. */
class RestartedWindowsTest {

    @Test
    void aRestartFromTheSnapshotLosesAndRepeatsNothing() throws Exception {
        List<Payment> payments = RestartedWindows.payments(6_000, 7);
        List<String> whole = RestartedWindows.uninterrupted(payments);
        assertTrue(whole.stream().anyMatch(s -> s.startsWith("three payments")), "count-trigger results");
        assertTrue(whole.stream().anyMatch(s -> s.startsWith("session 2 of")), "users with several sessions");
        for (int crashAt : new int[] {1, 2_500, 5_999}) {
            assertEquals(whole, RestartedWindows.restartedAt(payments, crashAt), "restarted after " + crashAt);
        }
    }
}

package io.cepheus.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's two rules over small hand-written streams, with the exact alerts expected. */
class FraudDetectorTest {

    private static final long T0 = SampleStream.START;

    private static long at(int minutes, int seconds) {
        return T0 + minutes * 60_000L + seconds * 1_000L;
    }

    private static FraudEvent fail(String user, long ts) {
        return FraudEvent.login(ts, user, "B", false);
    }

    private static FraudEvent ok(String user, long ts) {
        return FraudEvent.login(ts, user, "B", true);
    }

    private static FraudEvent pay(String card, long cents, long ts) {
        return FraudEvent.payment(ts, "holder-of-" + card, card, "C", cents);
    }

    /** Feeds the events (sorted by time, stably) and returns the alerts in the order they were raised. */
    private static List<Alert> detect(List<FraudEvent> events) {
        List<FraudEvent> sorted = new ArrayList<>(events);
        sorted.sort((x, y) -> Long.compare(x.ts(), y.ts()));
        return EngineRun.alertsOf(sorted, FraudEvent::ts, FraudDetector::register);
    }

    @Test
    void fiveFailedLoginsInARowWithinTenMinutesAlertOnce() {
        List<FraudEvent> alice = List.of(fail("alice", at(0, 0)), fail("alice", at(0, 30)), fail("alice", at(1, 0)),
                fail("alice", at(2, 0)), fail("alice", at(3, 0)));

        assertEquals(List.of(FraudDetector.bruteForceAlert(alice)), detect(alice));
    }

    @Test
    void aLongerBurstAlertsOnceWithItsFirstFiveFailures() {
        List<FraudEvent> dave = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            dave.add(fail("dave", at(0, 10 * i)));
        }
        assertEquals(List.of(FraudDetector.bruteForceAlert(dave.subList(0, 5))), detect(dave));
    }

    @Test
    void tenFailuresAreTwoAttacks() {
        List<FraudEvent> erin = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            erin.add(fail("erin", at(i, 0)));
        }
        assertEquals(List.of(FraudDetector.bruteForceAlert(erin.subList(0, 5)),
                FraudDetector.bruteForceAlert(erin.subList(5, 10))), detect(erin));
    }

    @Test
    void loginStreaksThatMustNotAlert() {
        List<FraudEvent> events = List.of(
                // bob: four failures, success, one failure
                fail("bob", at(0, 0)), fail("bob", at(0, 10)), fail("bob", at(0, 20)), fail("bob", at(0, 30)),
                ok("bob", at(0, 40)), fail("bob", at(0, 50)),
                // carol: five failures, but the fifth is exactly ten minutes after the first
                fail("carol", at(0, 0)), fail("carol", at(2, 0)), fail("carol", at(5, 0)), fail("carol", at(8, 0)),
                fail("carol", at(10, 0)),
                // five failures spread over five users
                fail("u1", at(1, 0)), fail("u2", at(1, 1)), fail("u3", at(1, 2)), fail("u4", at(1, 3)),
                fail("u5", at(1, 4)));

        assertEquals(List.of(), detect(events));
    }

    @Test
    void paymentsDoNotBreakAStreakOfFailedLogins() {
        FraudEvent purchase = FraudEvent.payment(at(0, 25), "frank", "c-frank", "A", 20_00);
        List<FraudEvent> failures = List.of(fail("frank", at(0, 0)), fail("frank", at(0, 10)),
                fail("frank", at(0, 20)), fail("frank", at(0, 30)), fail("frank", at(0, 40)));
        List<FraudEvent> events = new ArrayList<>(failures);
        events.add(purchase);

        assertEquals(List.of(FraudDetector.bruteForceAlert(failures)), detect(events));
    }

    @Test
    void aTinyPaymentThenABigOneWithinAMinuteIsCardTesting() {
        FraudEvent probe = pay("c1", 50, at(0, 0));
        FraudEvent coffee = pay("c1", 3_50, at(0, 10));
        FraudEvent charge = pay("c1", 600_00, at(0, 30));

        assertEquals(List.of(FraudDetector.cardTestingAlert(probe, charge)),
                detect(List.of(probe, coffee, charge)));
    }

    @Test
    void severalProbesBeforeOneChargeAlertOnceFromTheFirstProbe() {
        FraudEvent probe1 = pay("c4", 10, at(0, 0));
        FraudEvent probe2 = pay("c4", 20, at(0, 5));
        FraudEvent charge = pay("c4", 900_00, at(0, 20));

        assertEquals(List.of(FraudDetector.cardTestingAlert(probe1, charge)),
                detect(List.of(probe1, probe2, charge)));
    }

    @Test
    void paymentsThatMustNotAlert() {
        List<FraudEvent> events = List.of(
                // c2: the big charge comes 61 seconds after the probe
                pay("c2", 50, at(0, 0)), pay("c2", 600_00, at(1, 1)),
                // c3: the charge is 500.00, not over it; the probe is 0.99
                pay("c3", 99, at(0, 0)), pay("c3", 500_00, at(0, 10)),
                // c5: 1.00 is not under 1.00
                pay("c5", 1_00, at(0, 0)), pay("c5", 700_00, at(0, 10)),
                // c6 and c7: the probe and the charge are on different cards
                pay("c6", 10, at(0, 0)), pay("c7", 800_00, at(0, 10)),
                // c8: the big charge comes first
                pay("c8", 800_00, at(0, 0)), pay("c8", 10, at(0, 10)));

        assertEquals(List.of(), detect(events));
    }

    @Test
    void bothRulesOverOneInterleavedStreamAlertInTimeOrder() {
        FraudEvent probe = pay("c9", 1, at(0, 0));
        FraudEvent charge = pay("c9", 1_000_00, at(0, 45));
        List<FraudEvent> failures = List.of(fail("gina", at(0, 5)), fail("gina", at(0, 15)), fail("gina", at(0, 25)),
                fail("gina", at(0, 35)), fail("gina", at(0, 40)));
        List<FraudEvent> events = new ArrayList<>(failures);
        events.add(probe);
        events.add(charge);

        assertEquals(List.of(FraudDetector.bruteForceAlert(failures), FraudDetector.cardTestingAlert(probe, charge)),
                detect(events));
    }

    @Test
    void alertsReadAsOneLine() {
        List<FraudEvent> failures = List.of(fail("alice", at(0, 0)), fail("alice", at(0, 30)), fail("alice", at(1, 0)),
                fail("alice", at(2, 0)), fail("alice", at(3, 5)));
        assertEquals("[08:03:05] BRUTE FORCE   user alice (grade B): 5 failed logins in a row within 3m 5s",
                FraudDetector.bruteForceAlert(failures).describe());
        assertEquals("[08:00:31] CARD TESTING  card c1 of holder-of-c1 (grade C): 0.07 then 1,234.56 within 31s",
                FraudDetector.cardTestingAlert(pay("c1", 7, at(0, 0)), pay("c1", 1_234_56, at(0, 31))).describe());
    }
}

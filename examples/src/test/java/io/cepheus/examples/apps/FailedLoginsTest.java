package io.cepheus.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.examples.Alert;
import io.cepheus.examples.EngineRun;
import io.cepheus.examples.apps.FailedLogins.Login;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Strict ({@code consecutive()}) versus relaxed ({@code times(5)}) failed-login alerts, exactly. */
class FailedLoginsTest {

    private static final long T0 = Instant.parse("2025-03-01T08:00:00Z").toEpochMilli();

    private static Login fail(String user, int second) {
        return new Login(user, false, T0 + second * 1_000L);
    }

    private static Login ok(String user, int second) {
        return new Login(user, true, T0 + second * 1_000L);
    }

    private static List<Alert> run(List<Login> logins) {
        List<Login> sorted = new ArrayList<>(logins);
        sorted.sort(Comparator.comparingLong(Login::time));
        return EngineRun.alertsOf(sorted, Login::time, FailedLogins::register);
    }

    private static List<Alert> ofRule(List<Alert> alerts, String rule) {
        return alerts.stream().filter(a -> a.rule().equals(rule)).toList();
    }

    @Test
    void fiveFailuresInARowAlertInBothVariants() {
        List<Login> alice = List.of(fail("alice", 0), fail("alice", 30), fail("alice", 60), fail("alice", 90),
                fail("alice", 120));
        List<Alert> alerts = run(alice);

        assertEquals(List.of(new Alert(FailedLogins.STRICT, "alice", T0 + 120_000,
                "user alice: 5 failed logins in a row within 2m 0s", alice)), ofRule(alerts, FailedLogins.STRICT));
        assertEquals(List.of(new Alert(FailedLogins.RELAXED, "alice", T0 + 120_000,
                "user alice: 5 failed logins within 2m 0s", alice)), ofRule(alerts, FailedLogins.RELAXED));
    }

    @Test
    void aSuccessInBetweenBreaksTheStrictStreakButNotTheRelaxedCount() {
        List<Login> bob = List.of(fail("bob", 0), fail("bob", 10), ok("bob", 20), fail("bob", 30), fail("bob", 40),
                fail("bob", 50));
        List<Alert> alerts = run(bob);

        assertEquals(List.of(), ofRule(alerts, FailedLogins.STRICT));
        assertEquals(List.of(new Alert(FailedLogins.RELAXED, "bob", T0 + 50_000,
                "user bob: 5 failed logins within 50s",
                List.of(bob.get(0), bob.get(1), bob.get(3), bob.get(4), bob.get(5)))),
                ofRule(alerts, FailedLogins.RELAXED));
    }

    @Test
    void sevenFailuresAlertOnceThenTheStreakStartsOver() {
        List<Login> dave = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            dave.add(fail("dave", 10 * i));
        }
        List<Alert> alerts = run(dave);

        for (String rule : List.of(FailedLogins.STRICT, FailedLogins.RELAXED)) {
            List<Alert> ofRule = ofRule(alerts, rule);
            assertEquals(1, ofRule.size(), rule + ": " + ofRule);
            assertEquals(dave.subList(0, 5), ofRule.get(0).events(), rule);
        }
    }

    @Test
    void theFifthFailureMustComeLessThanTenMinutesAfterTheFirst() {
        // first to fifth: exactly 10 minutes, the window is half-open
        List<Login> carol = List.of(fail("carol", 0), fail("carol", 150), fail("carol", 300), fail("carol", 450),
                fail("carol", 600));
        // one second less: both alert
        List<Login> erin = List.of(fail("erin", 0), fail("erin", 150), fail("erin", 300), fail("erin", 450),
                fail("erin", 599));
        List<Login> both = new ArrayList<>(carol);
        both.addAll(erin);
        List<Alert> alerts = run(both);

        assertEquals(List.of("erin", "erin"), alerts.stream().map(Alert::key).toList());
    }

    @Test
    void usersAreMatchedSeparately() {
        // ten failures, but alternating between two users with four each plus a success each: nobody alerts
        List<Login> logins = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            logins.add(fail("frank", 2 * i));
            logins.add(fail("gina", 2 * i + 1));
        }
        logins.add(ok("frank", 20));
        logins.add(ok("gina", 21));
        logins.add(fail("frank", 22));

        assertEquals(List.of(), ofRule(run(logins), FailedLogins.STRICT));
        assertEquals(List.of("frank"), ofRule(run(logins), FailedLogins.RELAXED).stream().map(Alert::key).toList());
    }
}

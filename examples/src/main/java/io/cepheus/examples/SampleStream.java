package io.cepheus.examples;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A generated, reproducible stream of about 50,000 logins and payments over three hours, with planted
 * fraud: bursts of failed logins, and stolen cards probed with a tiny payment before a big one. Near misses
 * that must not alert are planted too. The same seed always gives the same stream.
 *
 * <p>Honest users mistype their password now and then but never five times in a row, and never pay less
 * than 1.00, so the only alerts are the planted ones ({@link #plantedAlerts()}).
 */
public final class SampleStream {

    /** The seed the demo uses unless told otherwise. */
    public static final long DEFAULT_SEED = 20250301L;
    /** When the stream starts. */
    public static final long START = Instant.parse("2025-03-01T08:00:00Z").toEpochMilli();
    /** How long the stream lasts. */
    public static final Duration LENGTH = Duration.ofHours(3);

    private static final int HONEST_USERS = 2_000;
    private static final int HONEST_EVENTS = 49_800;
    private static final int BRUTE_FORCE_ATTACKS = 12;
    private static final int CARD_TESTING_ATTACKS = 10;

    private final long seed;
    private final List<FraudEvent> events;
    private final List<Alert> plantedAlerts;

    private SampleStream(long seed, List<FraudEvent> events, List<Alert> plantedAlerts) {
        this.seed = seed;
        this.events = List.copyOf(events);
        this.plantedAlerts = List.copyOf(plantedAlerts);
    }

    /**
     * @param seed the random seed
     * @return the stream for that seed
     */
    public static SampleStream generate(long seed) {
        return new Generator(seed).generate();
    }

    /** @return the seed the stream was generated from */
    public long seed() {
        return seed;
    }

    /** @return every event, in time order */
    public List<FraudEvent> events() {
        return events;
    }

    /** @return the alerts the planted fraud must raise, in the order of the events completing them */
    public List<Alert> plantedAlerts() {
        return plantedAlerts;
    }

    /** Builds one stream; not reusable. */
    private static final class Generator {
        private final long seed;
        private final SplittableRandom rng;
        private final List<FraudEvent> events = new ArrayList<>();
        private final List<Alert> planted = new ArrayList<>();
        /** Victims of planted fraud get accounts of their own, so honest traffic cannot interleave with it. */
        private int nextVictim = HONEST_USERS;

        Generator(long seed) {
            this.seed = seed;
            this.rng = new SplittableRandom(seed);
        }

        SampleStream generate() {
            honestTraffic();
            for (int i = 0; i < BRUTE_FORCE_ATTACKS; i++) {
                bruteForce();
            }
            bruteForceNearMisses();
            for (int i = 0; i < CARD_TESTING_ATTACKS; i++) {
                cardTesting();
            }
            cardTestingNearMisses();
            // stable sorts: events of one account keep the order they were generated in
            events.sort(Comparator.comparingLong(FraudEvent::ts));
            planted.sort(Comparator.comparingLong(Alert::time));
            return new SampleStream(seed, events, planted);
        }

        private void honestTraffic() {
            long[] times = new long[HONEST_EVENTS];
            for (int i = 0; i < times.length; i++) {
                times[i] = START + rng.nextLong(LENGTH.toMillis());
            }
            Arrays.sort(times);
            // names are built once per user, not once per event
            String[] users = new String[HONEST_USERS];
            String[][] cards = new String[HONEST_USERS][];
            String[] grades = new String[HONEST_USERS];
            for (int u = 0; u < HONEST_USERS; u++) {
                users[u] = user(u);
                cards[u] = new String[] {card(u, 0), card(u, 1)};
                grades[u] = grade();
            }
            int[] failuresInARow = new int[HONEST_USERS];
            for (long ts : times) {
                int u = rng.nextInt(HONEST_USERS);
                if (rng.nextInt(100) < 55) {
                    // honest users mistype now and then, but never five times in a row
                    boolean success = failuresInARow[u] == 4 || rng.nextInt(100) >= 10;
                    failuresInARow[u] = success ? 0 : failuresInARow[u] + 1;
                    events.add(FraudEvent.login(ts, users[u], grades[u], success));
                } else {
                    events.add(FraudEvent.payment(ts, users[u], cards[u][rng.nextInt(2)], grades[u], honestAmount()));
                }
            }
        }

        /** @return 1.00 to 1,500.00, mostly small (log-uniform) */
        private long honestAmount() {
            double low = Math.log(1_00);
            double high = Math.log(1_500_00);
            return Math.max(1_00, Math.round(Math.exp(low + rng.nextDouble() * (high - low))));
        }

        /** Five to eight failed logins 5 to 60 seconds apart; sometimes the attacker then gets in. */
        private void bruteForce() {
            int victim = nextVictim++;
            String grade = grade();
            long ts = attackStart();
            List<FraudEvent> failures = new ArrayList<>();
            for (int i = 5 + rng.nextInt(4); i > 0; i--) {
                failures.add(FraudEvent.login(ts, user(victim), grade, false));
                ts += 5_000 + rng.nextLong(55_000);
            }
            events.addAll(failures);
            if (rng.nextBoolean()) {
                events.add(FraudEvent.login(ts, user(victim), grade, true));
            }
            planted.add(FraudDetector.bruteForceAlert(failures.subList(0, 5)));
        }

        private void bruteForceNearMisses() {
            // four failures, then the right password: a forgetful user
            loginBurst(new boolean[] {false, false, false, false, true}, 20_000);
            // five failures, but the first and the fifth are more than ten minutes apart
            loginBurst(new boolean[] {false, false, false, false, false}, 170_000);
            // five failures, with a success in the middle breaking the streak
            loginBurst(new boolean[] {false, false, false, true, false, false}, 10_000);
        }

        private void loginBurst(boolean[] outcomes, long gapMillis) {
            int victim = nextVictim++;
            String grade = grade();
            long ts = attackStart();
            for (boolean success : outcomes) {
                events.add(FraudEvent.login(ts, user(victim), grade, success));
                ts += gapMillis;
            }
        }

        /** One to three probes under 1.00 a few seconds apart, then a charge over 500.00 within the minute. */
        private void cardTesting() {
            int victim = nextVictim++;
            String grade = grade();
            String card = card(victim, 0);
            long ts = attackStart();
            FraudEvent firstProbe = null;
            for (int i = 1 + rng.nextInt(3); i > 0; i--) {
                FraudEvent probe = FraudEvent.payment(ts, user(victim), card, grade, 1 + rng.nextInt(99));
                firstProbe = firstProbe == null ? probe : firstProbe;
                events.add(probe);
                ts += 2_000 + rng.nextLong(3_000);
            }
            // at most 3 x 5 s of probing plus 40 s: always less than a minute after the first probe
            ts += 5_000 + rng.nextLong(35_000);
            FraudEvent charge = FraudEvent.payment(ts, user(victim), card, grade, 500_01 + rng.nextLong(2_000_00));
            events.add(charge);
            planted.add(FraudDetector.cardTestingAlert(firstProbe, charge));
        }

        private void cardTestingNearMisses() {
            // the big charge comes 90 seconds after the probe: too late
            probeThenCharge(50, 900_00, 90_000);
            // the charge is exactly 500.00, not over it
            probeThenCharge(99, 500_00, 20_000);
        }

        private void probeThenCharge(long probeCents, long chargeCents, long gapMillis) {
            int victim = nextVictim++;
            String grade = grade();
            long ts = attackStart();
            events.add(FraudEvent.payment(ts, user(victim), card(victim, 0), grade, probeCents));
            events.add(FraudEvent.payment(ts + gapMillis, user(victim), card(victim, 0), grade, chargeCents));
        }

        /** @return a start time that leaves room for the longest planted sequence before the stream ends */
        private long attackStart() {
            return START + rng.nextLong(LENGTH.minusMinutes(20).toMillis());
        }

        private String grade() {
            int r = rng.nextInt(100);
            return r < 40 ? "A" : r < 70 ? "B" : r < 90 ? "C" : "D";
        }

        private static String user(int index) {
            return "u" + fourDigits(index);
        }

        private static String card(int user, int index) {
            return "c-" + fourDigits(user) + "-" + (index + 1);
        }

        private static String fourDigits(int n) {
            String digits = Integer.toString(n);
            return "0000".substring(Math.min(4, digits.length())) + digits;
        }
    }
}

package io.cepheus.runtime.internal.cep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.Match;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.timer.TimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CepOperatorTest {

    private record Ev(String name, long ts) {
        char kind() {
            return name.charAt(0);
        }
    }

    private static final class Recorder implements CepOperator.Output<Ev> {
        final List<String> lines = new ArrayList<>();

        @Override
        public void match(Object key, Match<Ev> match, long timestamp) {
            lines.add(key + " MATCH " + names(match) + " @" + timestamp);
        }

        @Override
        public void timeout(Object key, Match<Ev> partialMatch, long timeoutTimestamp) {
            lines.add(key + " TIMEOUT " + names(partialMatch) + " @" + timeoutTimestamp);
        }

        @Override
        public void late(Object key, Ev event, long timestamp) {
            lines.add(key + " LATE " + event.name());
        }

        private static String names(Match<Ev> m) {
            StringBuilder sb = new StringBuilder();
            for (Ev e : m.allEvents()) {
                sb.append(sb.length() == 0 ? "" : " ").append(e.name());
            }
            return sb.toString();
        }
    }

    private final KeyDictionary keys = new KeyDictionary();
    private final TimerService timers = new TimerService();
    private final Recorder out = new Recorder();

    private CepOperator<Ev> operator(Pattern<Ev> pattern) {
        return new CepOperator<>(7, NfaCompiler.compile(pattern), NfaOptions.defaults().withProcessingTime(() -> 0L),
                null, keys, timers, out);
    }

    private static Pattern<Ev> orderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(100));
    }

    /**
     * A rule set may run a thousand versions over a million keys: a version's per-key arrays follow the keys it holds
     * state for, not the shard's key ids (which would cost every version a row per key id of the shard).
     */
    @Test
    void aRuleVersionKeepsRowsForTheKeysItHoldsNotForEveryKeyIdOfTheShard() {
        SharedEventBuffer<Ev> ruleSet = SharedEventBuffer.forRuleSet(null, id -> { });
        CepOperator<Ev> op = operator(orderThenShipment());
        op.ruleVersionOf(ruleSet, 0);
        for (int k = 0; k < 10_000; k++) {
            // every key id of the shard is in use; only every 1,000th key starts a partial match of this version
            ruleSet.buffer().add(keys.idOf("k" + k), new Ev(k % 1_000 == 0 ? "o" + k : "x" + k, 10), 10, k);
        }
        op.processWatermark(10);
        assertEquals(10, op.liveKeys());
        assertTrue(op.rowCapacity() <= 64, "rows for 10 keys held, not 10,000 key ids: " + op.rowCapacity());

        for (int k = 0; k < 10_000; k += 2_000) {
            ruleSet.buffer().add(keys.idOf("k" + k), new Ev("s" + k, 20), 20, 10_000 + k);
        }
        op.processWatermark(20);
        assertEquals(List.of("k0 MATCH o0 s0 @20", "k2000 MATCH o2000 s2000 @20", "k4000 MATCH o4000 s4000 @20",
                "k6000 MATCH o6000 s6000 @20", "k8000 MATCH o8000 s8000 @20"), out.lines);
        assertEquals(5, op.liveKeys());
        op.processWatermark(200);
        assertEquals(0, op.liveKeys(), "the other five time out and give their rows back");
        assertEquals(5, out.lines.stream().filter(l -> l.contains("TIMEOUT")).count());
    }

    @Test
    void aKeyThatReceivesNothingMoreStillTimesOutWhenTheWatermarkPassesItsWindow() {
        CepOperator<Ev> op = operator(orderThenShipment());
        op.processElement("u1", new Ev("o1", 10), 10);
        op.processElement("u2", new Ev("o2", 20), 20);
        op.processWatermark(50);
        op.processElement("u2", new Ev("s2", 60), 60);
        op.processWatermark(100);
        assertEquals(List.of("u2 MATCH o2 s2 @60"), out.lines);
        op.processWatermark(110);
        assertEquals(List.of("u2 MATCH o2 s2 @60", "u1 TIMEOUT o1 @110"), out.lines);
        assertEquals(0, keys.size(), "both keys are done: their ids are free again");
        assertEquals(0, timers.eventTimeTimers());
        assertEquals(0, op.bufferedEntries());
    }

    @Test
    void aKeyWhoseExpiryMovedLaterTimesOutAtItsRealExpiryNotAtTheEarlierOne() {
        CepOperator<Ev> op = operator(orderThenShipment());
        op.processElement("u1", new Ev("o1", 10), 10);
        op.processWatermark(15); // expiry 110 armed
        op.processElement("u1", new Ev("s1", 20), 20);
        op.processElement("u1", new Ev("o2", 30), 30);
        op.processWatermark(40); // o1 matched: the oldest partial match is now o2, expiring at 130
        op.processWatermark(125);
        assertEquals(List.of("u1 MATCH o1 s1 @20"), out.lines, "nothing expires at 110 any more");
        op.processWatermark(130);
        assertEquals(List.of("u1 MATCH o1 s1 @20", "u1 TIMEOUT o2 @130"), out.lines);
        assertEquals(0, keys.size());
    }

    @Test
    void keysExpiringAtOneWatermarkTimeOutInExpiryThenKeyIdOrder() {
        CepOperator<Ev> op = operator(orderThenShipment());
        op.processElement("u3", new Ev("o3", 10), 10);  // key id 0, expires at 110
        op.processElement("u1", new Ev("o1", 20), 20);  // key id 1, expires at 120
        op.processElement("u2", new Ev("o2", 10), 10);  // key id 2, expires at 110
        op.processWatermark(50);
        op.processWatermark(1_000);
        assertEquals(List.of("u3 TIMEOUT o3 @110", "u2 TIMEOUT o2 @110", "u1 TIMEOUT o1 @120"), out.lines);
        assertEquals(0, keys.size());
    }

    /**
     * More keys than one read-ahead group (reading ahead from the first key), due at one watermark: each times
     * out once, in (expiry, key id) order.
     */
    @Test
    void manyKeysExpiringAtOneWatermarkTimeOutOnceEachInExpiryThenKeyIdOrder() {
        CepOperator<Ev> op = operator(orderThenShipment());
        op.readAheadFromKeys(1);
        int keyCount = 3 * CepOperator.GROUP + 5;
        List<long[]> expected = new ArrayList<>(); // (expiry, key id)
        for (int i = 0; i < keyCount; i++) {
            long ts = 10 + (i * 7L) % 13; // ids follow first appearance: key "k" + i gets id i
            op.processElement("k" + i, new Ev("o" + i, ts), ts);
            expected.add(new long[] {ts + 100, i});
        }
        op.processWatermark(50);
        op.processElement("k1", new Ev("s1", 60), 60); // a key touched in between: matched, not timed out
        op.processWatermark(1_000);
        expected.removeIf(e -> e[1] == 1);
        expected.sort(java.util.Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        List<String> lines = new ArrayList<>(List.of("k1 MATCH o1 s1 @60"));
        for (long[] e : expected) {
            lines.add("k" + e[1] + " TIMEOUT o" + e[1] + " @" + e[0]);
        }
        assertEquals(lines, out.lines);
        assertEquals(keyCount - 1, op.timeouts());
        assertEquals(0, keys.size());
    }

    @Test
    void aKeyTouchedAtTheWatermarkThatExpiresItTimesOutOnce() {
        CepOperator<Ev> op = operator(orderThenShipment());
        op.processElement("u1", new Ev("o1", 10), 10);
        op.processWatermark(50);
        op.processElement("u1", new Ev("x1", 150), 150); // releases with the watermark that expires o1
        op.processWatermark(200);
        assertEquals(List.of("u1 TIMEOUT o1 @110"), out.lines);
        assertEquals(1, op.timeouts());
        assertEquals(0, keys.size());
    }

    /**
     * An event a new state would ignore makes no state for a key that has none: the key is freed once its
     * buffered events are matched. A key with state still sees every event, and the matches are as before.
     */
    @Test
    void eventsThatStartNothingOnKeysWithoutStateLeaveNoStateBehind() {
        CepOperator<Ev> op = operator(orderThenShipment());
        op.processElement("u1", new Ev("x1", 10), 10);
        op.processElement("u2", new Ev("s0", 11), 11);
        op.processElement("u1", new Ev("o1", 20), 20);
        op.processElement("u1", new Ev("x2", 30), 30);
        op.processElement("u1", new Ev("s1", 40), 40);
        assertEquals(2, keys.size(), "both keys hold buffered events");
        op.processWatermark(15);
        assertEquals(1, keys.size(), "u2's shipment starts nothing: no state, key freed");
        assertEquals(0, op.partialMatches());
        op.processWatermark(50);
        assertEquals(List.of("u1 MATCH o1 s1 @40"), out.lines);
        assertEquals(0, keys.size());
        op.processElement("u3", new Ev("o3", 60), 60);
        op.processElement("u3", new Ev("x3", 70), 70);
        op.processWatermark(80);
        assertEquals(1, keys.size(), "u3's order is open");
        op.processWatermark(200);
        assertEquals(List.of("u1 MATCH o1 s1 @40", "u3 TIMEOUT o3 @160"), out.lines);
        assertEquals(0, keys.size());
    }

    @Test
    void inProcessingTimeAnEventThatStartsNothingLeavesNoKeyEither() {
        CepOperator<Ev> op = operator(orderThenShipment());
        long[] now = {100};
        op.inProcessingTime(() -> now[0]);
        op.processElement("u1", new Ev("s0", 0), 0);
        assertEquals(0, keys.size());
        op.processElement("u1", new Ev("o1", 0), 0);
        assertEquals(1, keys.size());
        now[0] = 110;
        op.processElement("u1", new Ev("s1", 0), 0);
        assertEquals(List.of("u1 MATCH o1 s1 @110"), out.lines);
        assertEquals(0, keys.size());
    }

    @Test
    void lateEventsAreReportedAndCountedNeverMatched() {
        CepOperator<Ev> op = operator(orderThenShipment());
        op.processElement("u1", new Ev("o1", 10), 10);
        op.processWatermark(30);
        op.processElement("u1", new Ev("s1", 30), 30);
        op.processElement("u1", new Ev("s2", 31), 31);
        op.processWatermark(40);
        assertEquals(List.of("u1 LATE s1", "u1 MATCH o1 s2 @31"), out.lines);
        assertEquals(1, op.lateEvents());
    }

    @Test
    void eventsAreMatchedInTimestampOrderWhateverTheArrivalOrder() {
        CepOperator<Ev> op = operator(orderThenShipment());
        op.processElement("u1", new Ev("s1", 15), 15);
        op.processElement("u1", new Ev("o1", 10), 10);
        op.processWatermark(20);
        assertEquals(List.of("u1 MATCH o1 s1 @15"), out.lines);
    }

    @Test
    void aTrailingNotFollowedByIsReleasedAtTheWatermarkThatClosesItsWindow() {
        Pattern<Ev> noShipment = Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .notFollowedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(100));
        CepOperator<Ev> op = operator(noShipment);
        op.processElement("u1", new Ev("o1", 10), 10);
        op.processElement("u2", new Ev("o2", 10), 10);
        op.processElement("u2", new Ev("s2", 50), 50);
        op.processWatermark(60);
        op.processWatermark(500);
        assertEquals(List.of("u1 MATCH o1 @500"), out.lines);
        assertEquals(0, keys.size());
    }

    @Test
    void stateReturnsToZeroAfterManyKeysCompleteOrTimeOut() {
        CepOperator<Ev> op = operator(orderThenShipment());
        long ts = 0;
        for (int k = 0; k < 200_000; k++) {
            op.processElement("user-" + k, new Ev("o" + k, ts), ts);
            if (k % 2 == 0) {
                op.processElement("user-" + k, new Ev("s" + k, ts + 1), ts + 1);
            }
            ts += 1;
            if (k % 1000 == 999) {
                op.processWatermark(ts - 1);
            }
        }
        op.processWatermark(Long.MAX_VALUE);
        assertEquals(100_000, op.matches());
        assertEquals(100_000, op.timeouts());
        assertEquals(0, keys.size());
        assertEquals(0, op.bufferedEntries());
        assertEquals(0, op.bufferedEvents());
        assertEquals(0, timers.eventTimeTimers());
        assertTrue(keys.idBound() < 20_000, "ids are reused: " + keys.idBound());
    }
}

package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code KeyedStream.pattern(pattern, comparator)} through the whole engine (producer, inbox, shard, operator),
 * not only {@code EventTimeBuffer}: as in Flink's {@code CEP.pattern(input, pattern, comparator)}, a key's events
 * are released by timestamp, events of equal timestamp in comparator order, and events the comparator finds equal
 * in arrival order (Flink sorts each timestamp's events with a stable sort).
 */
class TieBreakingComparatorTest {

    /** An event: its key, the kind the comparator orders by, and an arrival number. */
    record Ev(String key, char kind, int seq, long ts) {
        @Override
        public String toString() {
            return "" + kind + seq;
        }
    }

    private static final Comparator<Ev> BY_KIND = Comparator.comparing(Ev::kind);

    /** A one-stage pattern every event matches at once: its matches show the order events reach the NFA. */
    private static Pattern<Ev> everyEvent() {
        return Pattern.<Ev>begin("e").where(e -> true);
    }

    /** Per key, the events in the order the pattern saw them (the harness runs everything on this thread). */
    private final Map<Object, List<String>> seen = new LinkedHashMap<>();
    private final Map<Object, List<String>> seenWithoutComparator = new LinkedHashMap<>();

    private CepEngine<Ev> engine() {
        return CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
    }

    private static MatchHandler<Ev> recordInto(Map<Object, List<String>> into) {
        return (key, match, ts) -> into.computeIfAbsent(key, k -> new ArrayList<>())
                .add(match.allEvents().get(0) + "@" + ts);
    }

    /** The same arrivals for two keys, on different shards. */
    private static void sendFirstRound(Producer<Ev> in, String key) {
        in.send(new Ev(key, 'c', 1, 100));
        in.send(new Ev(key, 'a', 2, 100));
        in.send(new Ev(key, 'b', 3, 100));
        in.send(new Ev(key, 'd', 4, 101)); // after the watermark below: waits
        in.send(new Ev(key, 'a', 5, 100)); // equal to a2 for the comparator: arrival order decides
        in.send(new Ev(key, 'z', 6, 100));
        in.send(new Ev(key, 'y', 7, 99)); // an earlier timestamp wins whatever the comparator says
    }

    private static String keyOnOtherShardThan(String key) {
        for (int i = 0; ; i++) {
            if (CepEngine.shardOf("k" + i, 2) != CepEngine.shardOf(key, 2)) {
                return "k" + i;
            }
        }
    }

    @Test
    void equalTimestampsAreReleasedInComparatorOrderThenArrivalOrderOnEveryShard() {
        CepEngine<Ev> engine = engine();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        keyed.pattern(everyEvent(), BY_KIND).select(recordInto(seen));
        // a second pattern on the same stream, without comparator: the comparator is per pattern
        keyed.pattern(everyEvent()).select(recordInto(seenWithoutComparator));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        String k1 = "k0";
        String k2 = keyOnOtherShardThan(k1);
        assertNotEquals(CepEngine.shardOf(k1, 2), CepEngine.shardOf(k2, 2));

        sendFirstRound(in, k1);
        sendFirstRound(in, k2);
        in.watermark(100);
        harness.runUntilIdle();
        List<String> firstRound = List.of("y7@99", "a2@100", "a5@100", "b3@100", "c1@100", "z6@100");
        assertEquals(Map.of(k1, firstRound, k2, firstRound), seen);
        assertEquals(List.of("y7@99", "c1@100", "a2@100", "b3@100", "a5@100", "z6@100"),
                seenWithoutComparator.get(k1), "without a comparator, equal timestamps keep arrival order");
        assertEquals(2 * 2, engine.metrics().total(ShardMetrics::bufferedEvents), "d4@101 waits, per key and pattern");

        // d4 (arrived earlier) and b8 share timestamp 101: the comparator puts b8 first
        in.send(new Ev(k1, 'b', 8, 101));
        in.send(new Ev(k2, 'b', 8, 101));
        in.watermark(101);
        harness.runUntilIdle();
        List<String> all = new ArrayList<>(firstRound);
        all.addAll(List.of("b8@101", "d4@101"));
        assertEquals(Map.of(k1, all, k2, all), seen);
        assertEquals(List.of("y7@99", "c1@100", "a2@100", "b3@100", "a5@100", "z6@100", "d4@101", "b8@101"),
                seenWithoutComparator.get(k2));
        harness.close();
        assertEquals(2 * 2 * 8, engine.metrics().total(ShardMetrics::matches));
    }
}

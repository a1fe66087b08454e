package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code CepEngine.all()}, the equivalent of Flink's CEP on a non-keyed stream: the whole stream is one partition
 * matched by a single task, so a pattern matches across events that a keyed stream would keep apart, and every
 * event goes to one shard whatever the shard count.
 */
class NonKeyedPatternTest {

    /** An event of a user; {@code user} is what a keyed stream would partition by. */
    record Ev(String user, char kind, int seq, long ts) {
    }

    /** An order immediately followed (strict contiguity) by a shipment. */
    private static Pattern<Ev> orderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o').next("ship").where(e -> e.kind() == 's');
    }

    private static final int SHARDS = 4;

    /** Orders and shipments of different users, in one event-time order. */
    private static void send(Producer<Ev> in) {
        in.send(new Ev("u1", 'o', 1, 100));
        in.send(new Ev("u2", 's', 2, 110)); // right after u1's order in the whole stream
        in.send(new Ev("u3", 'o', 3, 120));
        in.send(new Ev("u4", 'x', 4, 125)); // breaks the strict contiguity of u3's order in the whole stream
        in.send(new Ev("u5", 's', 5, 130));
        in.send(new Ev("u5", 'o', 6, 140));
        in.send(new Ev("u5", 's', 7, 150)); // u5 alone would match this one
        in.watermark(200);
    }

    private static List<String> run(Function<CepEngine<Ev>, KeyedStream<Ev>> partition, List<Object> keys,
            CepEngine<Ev> engine) {
        List<String> matches = new ArrayList<>();
        partition.apply(engine).pattern(orderThenShipment()).select((key, m, ts) -> {
            keys.add(key);
            matches.add(m.allEvents().stream().map(e -> e.user() + "#" + e.seq()).collect(Collectors.joining(" "))
                    + " @" + ts);
        });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        send(in);
        harness.runUntilIdle();
        harness.close();
        return matches;
    }

    private static CepEngine<Ev> engine() {
        return CepEngine.<Ev>builder().shards(SHARDS).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
    }

    @Test
    void aPatternOverAllEventsMatchesAcrossUsersOnOneShard() {
        CepEngine<Ev> engine = engine();
        List<Object> keys = new ArrayList<>();
        List<String> matches = run(CepEngine::all, keys, engine);
        assertEquals(List.of("u1#1 u2#2 @110", "u5#6 u5#7 @150"), matches);
        assertEquals(1, keys.stream().distinct().count(), "one partition: " + keys);

        // every event went to the same shard; the others saw nothing
        List<Long> events = engine.metrics().shards().stream().map(ShardMetrics::events).toList();
        assertEquals(7, events.stream().mapToLong(Long::longValue).sum());
        assertEquals(1, events.stream().filter(n -> n > 0).count(), "events per shard: " + events);
        assertEquals(0, engine.metrics().total(ShardMetrics::keys));
    }

    @Test
    void theSameEventsKeyedByUserMatchOnlyWithinAUser() {
        List<Object> keys = new ArrayList<>();
        CepEngine<Ev> engine = engine();
        List<String> matches = run(e -> e.keyBy(Ev::user), keys, engine);
        assertEquals(List.of("u5#6 u5#7 @150"), matches);
        assertEquals(List.of("u5"), keys);
        List<Long> events = engine.metrics().shards().stream().map(ShardMetrics::events).toList();
        assertEquals(7, events.stream().mapToLong(Long::longValue).sum());
    }
}

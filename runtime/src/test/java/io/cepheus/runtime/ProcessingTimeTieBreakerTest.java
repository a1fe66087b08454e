package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.nfa.EventCodec;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tie-breaker in processing time, as Flink's operator applies it: the events of one key that arrive in the same
 * millisecond are matched once the clock has passed that millisecond, sorted by the tie-breaker (equal ones in
 * arrival order), each stamped with its arrival time. Events of different milliseconds keep their arrival order
 * whatever the tie-breaker says. (Found by the randomized agreement test with Flink's {@code CepOperator} in
 * processing time; before, a tie-breaker was ignored in processing time.)
 */
class ProcessingTimeTieBreakerTest {

    record Ev(String key, char kind, int rank) {
    }

    private static final Comparator<Ev> BY_RANK = Comparator.comparingInt(Ev::rank);

    private static Pattern<Ev> aThenB() {
        return Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').next("b").where(e -> e.kind() == 'b');
    }

    private static CepEngine<Ev> engine(ManualClock clock, List<String> out) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, t) -> 0))
                .snapshots(EVENTS, KEYS).build();
        engine.keyBy(Ev::key).pattern(aThenB(), BY_RANK).inProcessingTime()
                .select((key, m, ts) -> out.add(key + " " + m.events("a").get(0).rank() + "->"
                        + m.events("b").get(0).rank() + " @" + ts));
        return engine;
    }

    @Test
    void arrivalsOfOneMillisecondAreMatchedSortedOnceTheClockHasPassedIt() {
        ManualClock clock = new ManualClock(5);
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine = engine(clock, out);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'b', 2)); // arrives before the 'a', but sorts after it
        in.send(new Ev("u1", 'a', 1));
        harness.runUntilIdle();
        assertEquals(List.of(), out, "millisecond 5 may still receive events: nothing is matched yet");
        clock.set(6);
        harness.runUntilIdle();
        assertEquals(List.of("u1 1->2 @5"), out, "sorted by rank, stamped with the arrival time");
        harness.close();
        assertEquals(0, engine.metrics().total(ShardMetrics::keys), "nothing left behind");
    }

    @Test
    void arrivalsOfTheLastMillisecondAreMatchedWhenTheInputEnds() {
        ManualClock clock = new ManualClock(5);
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine = engine(clock, out);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'b', 2));
        in.send(new Ev("u1", 'a', 1));
        harness.close(); // the end of input flushes processing time too: nothing waits for a clock that stopped
        assertEquals(List.of("u1 1->2 @5"), out);
        assertEquals(0, engine.metrics().total(ShardMetrics::keys));
    }

    @Test
    void arrivalsOfDifferentMillisecondsKeepTheirOrder() {
        ManualClock clock = new ManualClock(5);
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine = engine(clock, out);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'b', 2));
        harness.runUntilIdle();
        clock.set(6);
        in.send(new Ev("u1", 'a', 1)); // ranks lower, but a millisecond later: b then a, no match
        harness.runUntilIdle();
        clock.set(7);
        in.send(new Ev("u1", 'b', 0));
        harness.runUntilIdle();
        clock.set(8);
        harness.runUntilIdle();
        assertEquals(List.of("u1 1->0 @7"), out);
        harness.close();
    }

    @Test
    void arrivalsStillWaitingSurviveASnapshot() throws IOException {
        ManualClock clock = new ManualClock(5);
        List<String> out = new ArrayList<>();
        CepEngine<Ev> first = engine(clock, out);
        Producer<Ev> in = first.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(first);
        in.send(new Ev("u1", 'b', 2));
        in.send(new Ev("u1", 'a', 1));
        harness.runUntilIdle();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream data = new DataOutputStream(bytes)) {
            harness.snapshot(data, EVENTS, KEYS);
        }
        assertEquals(List.of(), out);

        CepEngine<Ev> second = engine(clock, out);
        second.newProducer();
        CepTestHarness<Ev> restored = CepTestHarness.restore(second,
                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), EVENTS, KEYS);
        clock.set(6);
        restored.runUntilIdle();
        assertEquals(List.of("u1 1->2 @5"), out, "the restored arrivals are matched when the clock passes them");
        restored.close();
        assertEquals(0, second.metrics().total(ShardMetrics::keys));
    }

    static final EventCodec<Ev> EVENTS = new EventCodec<>() {
        @Override
        public void write(Ev e, DataOutput out) throws IOException {
            out.writeUTF(e.key());
            out.writeChar(e.kind());
            out.writeInt(e.rank());
        }

        @Override
        public Ev read(DataInput in) throws IOException {
            return new Ev(in.readUTF(), in.readChar(), in.readInt());
        }
    };

    static final EventCodec<Object> KEYS = new EventCodec<>() {
        @Override
        public void write(Object key, DataOutput out) throws IOException {
            out.writeUTF((String) key);
        }

        @Override
        public Object read(DataInput in) throws IOException {
            return in.readUTF();
        }
    };
}

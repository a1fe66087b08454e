package io.cepheus.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.Producer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The interval join's configuration errors, class-selected sides, outer alerts and side outputs. */
class IntervalJoinApiTest {

    sealed interface Ev permits Order, Payment {
        String id();

        long ts();
    }

    record Order(String id, long ts) implements Ev {
    }

    record Payment(String id, long ts) implements Ev {
    }

    /** A codec that is never called: the join is refused before anything is written. */
    private static final class Unused<X> implements EventCodec<X> {
        @Override
        public void write(X event, java.io.DataOutput out) {
            throw new AssertionError("not called");
        }

        @Override
        public X read(java.io.DataInput in) {
            throw new AssertionError("not called");
        }
    }

    @Test
    void lowerAboveUpperIsRejectedBeforeExclusivenessApplies() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).build();
        var join = engine.keyBy(Ev::id).intervalJoin(Order.class, Payment.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> join.between(Duration.ofSeconds(1), Duration.ofSeconds(-1)));
        assertTrue(e.getMessage().contains("lowerBound <= upperBound"), e.getMessage());
        // [0, 0] with an exclusive bound is accepted (and never joins), as in Flink
        join.between(Duration.ZERO, Duration.ZERO).lowerBoundExclusive();
    }

    @Test
    void processNeedsBoundsAndSnapshotsAreRefusedClearly() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).build();
        var join = engine.keyBy(Ev::id).intervalJoin(Order.class, Payment.class);
        assertThrows(IllegalStateException.class, () -> join.process((o, p, ctx, out) -> { }));

        CepEngine<Ev> snapshotting = CepEngine.<Ev>builder().shards(1)
                .snapshots(new Unused<>(), new Unused<>()).build();
        var keyed = snapshotting.keyBy(Ev::id);
        // sides by class are events, written with the engine's event codec; sides by function need codecs
        keyed.intervalJoin(Order.class, Payment.class).between(Duration.ZERO, Duration.ofMinutes(5))
                .process((o, p, ctx, out) -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> keyed
                .intervalJoin(ev -> ev instanceof Order o ? o : null, ev -> ev instanceof Payment p ? p : null)
                .between(Duration.ZERO, Duration.ofMinutes(5)).process((o, p, ctx, out) -> { }));
        assertTrue(e.getMessage().contains("snapshotCodecs"), e.getMessage());
    }

    /** "Orders with no payment within 5 minutes": the alert comes from the watermark, not from a later event. */
    @Test
    void leftOuterReportsUnpaidOrdersWhenTheirIntervalCloses() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).inboxCapacity(64).build();
        List<String> out = new ArrayList<>();
        List<String> side = new ArrayList<>();
        OutputTag<String> slow = OutputTag.of("slow", String.class);
        IntervalJoinStream<Ev, Order, Payment, String> join = engine.keyBy(Ev::id)
                .intervalJoin(Order.class, Payment.class)
                .between(Duration.ZERO, Duration.ofMinutes(5))
                .leftOuter()
                .<String>process((o, p, ctx, c) -> {
                    if (p == null) {
                        c.collect("UNPAID " + o.id());
                    } else {
                        c.collect("PAID " + o.id());
                        if (ctx.rightTimestamp() - ctx.leftTimestamp() > 60_000) {
                            ctx.output(slow, o.id());
                        }
                    }
                })
                .results((key, line, ts) -> out.add(line + " @" + ts))
                .sideOutput(slow, (id, ts) -> side.add(id + " @" + ts));
        Producer<Ev> orders = engine.newProducer();
        Producer<Ev> payments = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        orders.send(new Order("o1", 0), 0);
        orders.send(new Order("o2", 1_000), 1_000);
        payments.send(new Payment("o2", 121_000), 121_000);
        orders.watermark(400_000);
        payments.watermark(300_000);
        h.runUntilIdle();
        assertEquals(List.of("PAID o2 @121000"), out);
        assertEquals(List.of("o2 @121000"), side);
        assertEquals(2, join.metrics().bufferedLeft(), "o1 is held until the watermark passes 0 + 5 min");
        payments.watermark(300_001); // the join's watermark passes o1's interval; no event for o1's key
        h.runUntilIdle();
        assertEquals(List.of("PAID o2 @121000", "UNPAID o1 @300000"), out);
        assertEquals(1, join.metrics().bufferedLeft(), "o2 (paid) is held until the watermark passes 301000");
        orders.watermark(Long.MAX_VALUE);
        payments.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(2, out.size(), "a paid order is never reported unpaid");
        assertEquals(new IntervalJoinMetrics(0, 0, 2, 1, 1, 1, 0, 0, 0, 0), join.metrics());
        h.close();
    }

    /**
     * A full outer join reports both sides' unmatched elements, each once its own interval has closed: an order
     * with no payment when the watermark passes {@code order.ts + upper}, a payment with no order when it passes
     * {@code payment.ts - lower}; a joined pair comes once, and neither of its elements is ever reported unmatched.
     */
    @Test
    void fullOuterReportsUnmatchedElementsOfBothSidesWhenTheirIntervalsClose() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).inboxCapacity(64).build();
        List<String> out = new ArrayList<>();
        IntervalJoinStream<Ev, Order, Payment, String> join = engine.keyBy(Ev::id)
                .intervalJoin(Order.class, Payment.class)
                .between(Duration.ofMinutes(-1), Duration.ofMinutes(5))
                .fullOuter()
                .<String>process((o, p, ctx, c) -> c.collect(o == null ? "PAYMENT WITHOUT ORDER " + p.id()
                        : p == null ? "ORDER WITHOUT PAYMENT " + o.id() : "PAID " + o.id()))
                .results((key, line, ts) -> out.add(line + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Order("o1", 0), 0);               // never paid
        in.send(new Order("o2", 10_000), 10_000);     // paid 20 s later
        in.send(new Payment("o2", 30_000), 30_000);
        in.send(new Payment("p9", 100_000), 100_000); // no order: its interval closes at 100 s + 1 min
        in.watermark(160_000);
        h.runUntilIdle();
        assertEquals(List.of("PAID o2 @30000"), out, "nothing has closed yet");
        in.watermark(160_001);
        h.runUntilIdle();
        assertEquals(List.of("PAID o2 @30000", "PAYMENT WITHOUT ORDER p9 @160000"), out);
        in.watermark(300_001);
        h.runUntilIdle();
        assertEquals(List.of("PAID o2 @30000", "PAYMENT WITHOUT ORDER p9 @160000", "ORDER WITHOUT PAYMENT o1 @300000"),
                out);
        in.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        assertEquals(3, out.size(), "the paid order and its payment are never reported unmatched");
        assertEquals(1, join.metrics().unmatchedLeft());
        assertEquals(1, join.metrics().unmatchedRight());
        h.close();
    }

    /**
     * Where Flink drops an element when the watermark <em>reaches</em> its bound, Cepheus waits until it
     * <em>passes</em> it, so an on-time partner stamped exactly at the bound still joins: the left side is
     * conformance case 33, and the right side (dropped at {@code right.ts - lower}) mirrors it.
     */
    @Test
    void anElementIsKeptUntilTheWatermarkPassesItsBoundOnEitherSide() {
        // left at 0, bounds [0, 5]: kept at watermark 5; the payment at 5 is on time (not below 5) and joins
        assertEquals(List.of("o@0 p@5 @5"), joinAcrossTheBound(Duration.ZERO, Duration.ofMillis(5),
                new Order("k", 0), new Payment("k", 5)));
        // right at 0, bounds [-5, 0]: kept at watermark 5 = 0 - (-5); the order at 5 joins it
        assertEquals(List.of("o@5 p@0 @5"), joinAcrossTheBound(Duration.ofMillis(-5), Duration.ZERO,
                new Payment("k", 0), new Order("k", 5)));
    }

    /** Sends {@code first}, moves both watermarks to 5, then sends {@code second}; @return the pairs */
    private static List<String> joinAcrossTheBound(Duration lower, Duration upper, Ev first, Ev second) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).build();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::id).intervalJoin(Order.class, Payment.class).between(lower, upper)
                .<String>process((o, p, ctx, c) -> c.collect("o@" + o.ts() + " p@" + p.ts()))
                .results((key, line, ts) -> out.add(line + " @" + ts));
        Producer<Ev> orders = engine.newProducer();
        Producer<Ev> payments = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        Producer<Ev> firstSide = first instanceof Order ? orders : payments;
        Producer<Ev> secondSide = first instanceof Order ? payments : orders;
        firstSide.send(first, first.ts());
        orders.watermark(5);
        payments.watermark(5);
        h.runUntilIdle();
        secondSide.send(second, second.ts());
        orders.watermark(Long.MAX_VALUE);
        payments.watermark(Long.MAX_VALUE);
        h.runUntilIdle();
        h.close();
        return out;
    }
}

package io.cepheus.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.CollectingSink;
import io.cepheus.runtime.DeadLetter;
import io.cepheus.runtime.DeadLetterHandler;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The joins' late elements and dead letters as typed {@link OutputTag} side outputs (Flink's
 * {@code sideOutputLeftLateData(tag)} / {@code sideOutputRightLateData(tag)} on interval joins,
 * {@code sideOutputLateData(tag)} on windows), next to their handler forms: what goes where, which form wins when
 * both are set, and a start that fails, naming the tag, when a routed tag has no handler.
 */
class JoinSideOutputTagsTest {

    sealed interface Ev permits Order, Payment {
        String id();
    }

    record Order(String id, long ts) implements Ev {
    }

    record Payment(String id, long ts) implements Ev {
    }

    private static final OutputTag<Order> LATE_ORDERS = OutputTag.of("late-orders", Order.class);
    private static final OutputTag<Payment> LATE_PAYMENTS = OutputTag.of("late-payments", Payment.class);
    private static final OutputTag<Ev> LATE = OutputTag.of("late", Ev.class);
    private static final OutputTag<DeadLetter> ERRORS = DeadLetter.tag("errors");

    /** Sends orders and payments on a producer each, then both sides' watermark, then one late element each. */
    private static void run(CepEngine<Ev> engine, List<Order> orders, List<Payment> payments, long watermark,
            Order lateOrder, Payment latePayment) {
        Producer<Ev> left = engine.newProducer();
        Producer<Ev> right = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        orders.forEach(o -> left.send(o, o.ts()));
        payments.forEach(p -> right.send(p, p.ts()));
        left.watermark(watermark);
        right.watermark(watermark);
        h.runUntilIdle();
        left.send(lateOrder, lateOrder.ts());
        right.send(latePayment, latePayment.ts());
        h.runUntilIdle();
        h.close();
    }

    @Test
    void anIntervalJoinSendsLateElementsOfEachSideAndDeadLettersToTheirTags() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).build();
        CollectingSink<Order> lateOrders = new CollectingSink<>();
        CollectingSink<Payment> latePayments = new CollectingSink<>();
        CollectingSink<DeadLetter> errors = new CollectingSink<>();
        List<String> paid = new ArrayList<>();
        var join = engine.keyBy(Ev::id).intervalJoin(Order.class, Payment.class)
                .between(Duration.ZERO, Duration.ofMinutes(5))
                .<String>process((o, p, ctx, out) -> {
                    if (o.id().equals("bad")) {
                        throw new IllegalArgumentException("join bug");
                    }
                    out.collect("PAID " + o.id());
                })
                .results((key, line, ts) -> paid.add(line + " @" + ts))
                .sideOutputLeftLateData(LATE_ORDERS)
                .sideOutputRightLateData(LATE_PAYMENTS)
                .sideOutputDeadLetters(ERRORS)
                .sideOutput(LATE_ORDERS, lateOrders::add)
                .sideOutput(LATE_PAYMENTS, latePayments::add)
                .sideOutput(ERRORS, errors::add);

        run(engine, List.of(new Order("bad", 0), new Order("good", 1_000)),
                List.of(new Payment("bad", 2_000), new Payment("good", 3_000)), 500_000,
                new Order("late", 10), new Payment("late", 20));

        assertEquals(List.of("PAID good @3000"), paid);
        assertEquals(List.of(new CollectingSink.Record<>(null, new Order("late", 10), 10)), lateOrders.records());
        assertEquals(List.of(new CollectingSink.Record<>(null, new Payment("late", 20), 20)),
                latePayments.records());
        assertEquals(1, errors.size());
        DeadLetter d = errors.values().get(0);
        assertEquals("bad", d.key());
        assertEquals(new Payment("bad", 2_000), d.value()); // the later element of the pair
        assertSame(IllegalArgumentException.class, rootCause(d.error()).getClass());
        IntervalJoinMetrics m = join.metrics(); // late elements and dead letters are counted whatever their output
        assertEquals(List.of(1L, 1L, 1L), List.of(m.lateLeft(), m.lateRight(), m.deadLetters()));
    }

    @Test
    void theLaterOfAnIntervalJoinsLateHandlerAndTagFormWins() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).build();
        CollectingSink<Order> byTag = new CollectingSink<>();
        List<Order> byHandler = new ArrayList<>();
        CollectingSink<Payment> paymentsByTag = new CollectingSink<>();
        engine.keyBy(Ev::id).intervalJoin(Order.class, Payment.class)
                .between(Duration.ZERO, Duration.ofMinutes(5))
                .<String>process((o, p, ctx, out) -> out.collect(o.id()))
                .sideOutputLeftLateData(LATE_ORDERS)
                .lateLeft((key, o, ts) -> byHandler.add(o))
                .lateRight((key, p, ts) -> {
                    throw new AssertionError("replaced by the tag form");
                })
                .sideOutputRightLateData(LATE_PAYMENTS)
                .sideOutput(LATE_ORDERS, byTag::add)
                .sideOutput(LATE_PAYMENTS, paymentsByTag::add);

        run(engine, List.of(), List.of(), 1_000, new Order("a", 10), new Payment("b", 20));

        assertEquals(List.of(new Order("a", 10)), byHandler);
        assertEquals(0, byTag.size());
        assertEquals(List.of(new Payment("b", 20)), paymentsByTag.values());
    }

    @Test
    void aTemporalJoinSendsLateElementsLateVersionsAndDeadLettersToTheirTags() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).build();
        CollectingSink<Order> lateOrders = new CollectingSink<>();
        CollectingSink<Payment> lateVersions = new CollectingSink<>();
        CollectingSink<DeadLetter> errors = new CollectingSink<>();
        List<String> joined = new ArrayList<>();
        var join = engine.keyBy(Ev::id).temporalJoin(Order.class, Payment.class)
                .<String>apply((o, p) -> {
                    if (o.id().equals("bad")) {
                        throw new IllegalArgumentException("join bug");
                    }
                    return o.id() + " as of " + p.ts();
                })
                .results((key, line, ts) -> joined.add(line + " @" + ts))
                .sideOutputLateElements(LATE_ORDERS)
                .sideOutputLateVersions(LATE_PAYMENTS)
                .sideOutputDeadLetters(ERRORS)
                .sideOutput(LATE_ORDERS, lateOrders::add)
                .sideOutput(LATE_PAYMENTS, lateVersions::add)
                .sideOutput(ERRORS, errors::add);

        run(engine, List.of(new Order("bad", 2_000), new Order("good", 3_000)),
                List.of(new Payment("bad", 1_000), new Payment("good", 1_500)), 10_000,
                new Order("late", 10), new Payment("late", 20));

        assertEquals(List.of("good as of 1500 @3000"), joined);
        assertEquals(List.of(new CollectingSink.Record<>(null, new Order("late", 10), 10)), lateOrders.records());
        assertEquals(List.of(new CollectingSink.Record<>(null, new Payment("late", 20), 20)),
                lateVersions.records());
        assertEquals(1, errors.size());
        assertEquals("bad", errors.values().get(0).key());
        assertEquals(new Order("bad", 2_000), errors.values().get(0).value());
        assertSame(IllegalArgumentException.class, rootCause(errors.values().get(0).error()).getClass());
        TemporalJoinMetrics m = join.metrics();
        assertEquals(List.of(1L, 1L, 1L), List.of(m.lateElements(), m.lateVersions(), m.deadLetters()));
    }

    @Test
    void windowJoinsAndCoGroupsSendLateElementsAndDeadLettersWhereTheyAreTold() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).build();
        CollectingSink<Ev> lateJoin = new CollectingSink<>();
        CollectingSink<Ev> lateCoGroup = new CollectingSink<>();
        CollectingSink<DeadLetter> joinErrors = new CollectingSink<>();
        List<Object> coGroupErrors = new ArrayList<>();
        List<String> pairs = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        var keyed = engine.keyBy(Ev::id);
        keyed.join(Order.class, Payment.class)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                .sideOutputLateData(LATE)
                .sideOutputDeadLetters(ERRORS)
                .<String>apply((o, p) -> o.id() + "+" + p.ts())
                .sideOutput(LATE, lateJoin::add)
                .sideOutput(ERRORS, joinErrors::add)
                .results((key, window, line, ts) -> {
                    if (key.equals("c")) {
                        throw new IllegalStateException("cannot store " + line);
                    }
                    pairs.add(line);
                });
        OutputTag<Ev> lateGroups = OutputTag.of("late-groups", Ev.class);
        keyed.coGroup(Order.class, Payment.class)
                .window(TumblingEventTimeWindows.of(Duration.ofSeconds(1)))
                .sideOutputLateData(lateGroups)
                .deadLetters(new DeadLetterHandler<>() {
                    @Override
                    public void onDeadLetter(Object key, Ev event, long timestamp, RuntimeException error) {
                        coGroupErrors.add("element " + event);
                    }

                    @Override
                    public void onFailedOutput(Object key, Object output, long timestamp, RuntimeException error) {
                        coGroupErrors.add("result " + key + " " + output);
                    }
                })
                .<String>apply((os, ps, out) -> out.collect(count(os) + "/" + count(ps)))
                .sideOutput(lateGroups, lateCoGroup::add)
                .results((key, window, line, ts) -> {
                    if (key.equals("c")) {
                        throw new IllegalStateException("cannot store " + line);
                    }
                    groups.add(key + " " + line);
                });

        run(engine, List.of(new Order("a", 100), new Order("c", 300)),
                List.of(new Payment("a", 200), new Payment("c", 400)), 5_000,
                new Order("a", 10), new Payment("b", 20));

        assertEquals(List.of("a+200"), pairs);
        assertEquals(List.of("a 1/1"), groups);
        for (CollectingSink<Ev> late : List.of(lateJoin, lateCoGroup)) {
            assertEquals(List.of(new Order("a", 10), new Payment("b", 20)), late.values());
            assertEquals(List.of(10L, 20L), late.records().stream().map(CollectingSink.Record::timestamp).toList());
        }
        assertEquals(List.of(new DeadLetter("c", "c+400", 999, joinErrors.values().get(0).error())),
                joinErrors.values());
        assertSame(IllegalStateException.class, rootCause(joinErrors.values().get(0).error()).getClass());
        assertEquals(List.of("result c 1/1"), coGroupErrors);
    }

    @Test
    void aJoinsRoutedTagWithoutAHandlerFailsTheStartNamingIt() {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1).build();
        engine.keyBy(Ev::id).intervalJoin(Order.class, Payment.class)
                .between(Duration.ZERO, Duration.ofMinutes(5))
                .<String>process((o, p, ctx, out) -> out.collect(o.id()))
                .sideOutputRightLateData(LATE_PAYMENTS);
        engine.newProducer();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> CepTestHarness.start(engine));
        assertEquals("late right elements of interval join 0 go to side output 'late-payments', which has no handler:"
                + " register one with IntervalJoinStream.sideOutput(tag, handler)", rootCause(e).getMessage());
        engine.close();

        CepEngine<Ev> temporal = CepEngine.<Ev>builder().shards(1).build();
        temporal.keyBy(Ev::id).temporalJoin(Order.class, Payment.class).<String>apply((o, p) -> o.id())
                .sideOutputDeadLetters(ERRORS);
        temporal.newProducer();
        e = assertThrows(IllegalStateException.class, () -> CepTestHarness.start(temporal));
        assertEquals("dead letters of temporal join 0 go to side output 'errors', which has no handler: register one"
                + " with TemporalJoinStream.sideOutput(tag, handler)", rootCause(e).getMessage());
        temporal.close();
    }

    private static int count(Iterable<?> elements) {
        int n = 0;
        for (Object ignored : elements) {
            n++;
        }
        return n;
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}

package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.Match;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Late data, timeouts and dead letters as typed {@link OutputTag} side outputs, as Flink routes them
 * ({@code sideOutputLateData(tag)}, {@code select(timeoutTag, ...)}), next to the handler forms: what goes where,
 * and a start that fails, naming the tag, when a routed tag has no handler.
 */
class SideOutputTagsTest {

    record Ev(String key, char kind, long ts) {
    }

    private static final OutputTag<Ev> LATE = OutputTag.of("late", Ev.class);
    private static final OutputTag<String> UNSHIPPED = OutputTag.of("unshipped", String.class);
    private static final OutputTag<DeadLetter> ERRORS = DeadLetter.tag("errors");

    private static CepEngine<Ev> engine() {
        return CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>forMonotonousTimestamps().withTimestampAssigner((e, ts) -> e.ts()))
                .build();
    }

    /** An order then its shipment within 1 s; an event of kind 'x' makes the condition throw. */
    private static Pattern<Ev> orderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> {
            if (e.kind() == 'x') {
                throw new IllegalArgumentException("bad event " + e);
            }
            return e.kind() == 'o';
        }).followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(1_000));
    }

    @Test
    void lateEventsTimeoutsAndDeadLettersGoToTheirTags() {
        CepEngine<Ev> engine = engine();
        CollectingSink<Ev> late = new CollectingSink<>();
        CollectingSink<String> unshipped = new CollectingSink<>();
        CollectingSink<DeadLetter> errors = new CollectingSink<>();
        CollectingSink<String> matches = new CollectingSink<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> {
                    if (key.equals("u4")) {
                        throw new IllegalStateException("cannot ship to u4");
                    }
                    matches.add(key, "shipped", ts);
                })
                .sideOutputLateData(LATE)
                .sideOutputTimeouts(UNSHIPPED, partial -> partial.events("order").get(0).key())
                .sideOutputDeadLetters(ERRORS)
                .sideOutput(LATE, late::add)
                .sideOutput(UNSHIPPED, unshipped::add)
                .sideOutput(ERRORS, errors::add);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 100));
        in.send(new Ev("u2", 'o', 150));
        in.send(new Ev("u1", 's', 400));
        in.send(new Ev("u3", 'x', 420));
        in.send(new Ev("u4", 'o', 430));
        in.send(new Ev("u4", 's', 440));
        in.watermark(500);
        in.send(new Ev("u5", 'o', 450)); // behind the watermark
        h.runUntilIdle();
        h.close();

        assertEquals(List.of(new CollectingSink.Record<>("u1", "shipped", 400)), matches.records());
        assertEquals(List.of(new CollectingSink.Record<>(null, new Ev("u5", 'o', 450), 450)), late.records());
        assertEquals(List.of(new CollectingSink.Record<>(null, "u2", 1_150)), unshipped.records());
        assertEquals(2, errors.size());
        DeadLetter condition = errors.values().stream().filter(d -> d.key().equals("u3")).findFirst().orElseThrow();
        assertEquals(new Ev("u3", 'x', 420), condition.value());
        assertEquals(420, condition.timestamp());
        assertTrue(condition.error().getMessage().contains("order"), condition.error().getMessage());
        DeadLetter handler = errors.values().stream().filter(d -> d.key().equals("u4")).findFirst().orElseThrow();
        assertEquals(List.of(new Ev("u4", 'o', 430), new Ev("u4", 's', 440)), ((Match<?>) handler.value()).allEvents());
        assertEquals(440, handler.timestamp());
        assertEquals("cannot ship to u4", rootCause(handler.error()).getMessage());
    }

    @Test
    void aRoutedTagWithoutAHandlerFailsTheStartNamingIt() {
        CepEngine<Ev> engine = engine();
        engine.keyBy(Ev::key).pattern(orderThenShipment()).sideOutputLateData(LATE);
        engine.newProducer();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> CepTestHarness.start(engine));
        assertEquals("late events of pattern 0 go to side output 'late', which has no handler: register one with"
                + " PatternStream.sideOutput(tag, handler)", rootCause(e).getMessage());
        engine.close();
    }

    @Test
    void aRoutedTagRegisteredForAnotherTypeFailsTheStart() {
        CepEngine<Ev> engine = engine();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .sideOutputTimeouts(UNSHIPPED, partial -> "x")
                .sideOutput(OutputTag.of("unshipped", Integer.class), (v, ts) -> { });
        engine.newProducer();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> CepTestHarness.start(engine));
        assertEquals("timed-out partial matches of pattern 0 go to side output 'unshipped' of java.lang.String, but"
                + " it was registered for java.lang.Integer", rootCause(e).getMessage());
        engine.close();
    }

    @Test
    void theLaterOfTheHandlerAndTheTagFormWins() {
        CepEngine<Ev> engine = engine();
        CollectingSink<Ev> byHandler = new CollectingSink<>();
        CollectingSink<Ev> byTag = new CollectingSink<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .sideOutputLateData(LATE).sideOutput(LATE, byTag::add)
                .lateEvents(byHandler::add);
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.watermark(500);
        in.send(new Ev("u1", 'o', 450));
        h.runUntilIdle();
        h.close();
        assertEquals(List.of(new Ev("u1", 'o', 450)), byHandler.values());
        assertEquals(0, byTag.size());
    }

    @Test
    void windowsSendLateElementsAndDeadLettersToTheirTags() {
        CepEngine<Ev> engine = engine();
        CollectingSink<Ev> late = new CollectingSink<>();
        CollectingSink<DeadLetter> errors = new CollectingSink<>();
        CollectingSink<Ev> latest = new CollectingSink<>();
        engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofMillis(100)))
                .sideOutputLateData(LATE)
                .sideOutputDeadLetters(ERRORS)
                .reduce((kept, next) -> {
                    if (next.kind() == 'x') {
                        throw new IllegalArgumentException("bad element " + next);
                    }
                    return next;
                })
                .sideOutput(LATE, late::add)
                .sideOutput(ERRORS, errors::add)
                .results((key, window, last, ts) -> latest.add(key, last, ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'a', 10));
        in.send(new Ev("u1", 'x', 20));
        in.send(new Ev("u1", 'a', 30));
        in.watermark(150);
        in.send(new Ev("u1", 'a', 40)); // its window [0, 100) has fired
        h.runUntilIdle();
        h.close();
        assertEquals(List.of(new CollectingSink.Record<>("u1", new Ev("u1", 'a', 30), 99)), latest.records());
        assertEquals(List.of(new CollectingSink.Record<>(null, new Ev("u1", 'a', 40), 40)), late.records());
        assertEquals(1, errors.size());
        DeadLetter d = errors.values().get(0);
        assertEquals("u1", d.key());
        assertEquals(new Ev("u1", 'x', 20), d.value());
        assertSame(IllegalArgumentException.class, rootCause(d.error()).getClass());
    }

    @Test
    void aWindowsRoutedTagWithoutAHandlerFailsTheStart() {
        CepEngine<Ev> engine = engine();
        engine.keyBy(Ev::key).window(TumblingEventTimeWindows.of(Duration.ofMillis(100)))
                .sideOutputLateData(LATE).reduce((a, b) -> b);
        engine.newProducer();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> CepTestHarness.start(engine));
        assertEquals("late elements of window 0 go to side output 'late', which has no handler: register one with"
                + " WindowResults.sideOutput(tag, handler)", rootCause(e).getMessage());
        engine.close();
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}

package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.trace.EndReason;
import io.cepheus.nfa.trace.TraceEntry;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.explain.Explanation;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A key's trace through the engine ({@link PatternStream#startTrace}, {@link CepTestHarness#explain}): the three
 * reasons users most often meet for a pattern that never fires (a watermark that does not move, strict contiguity
 * broken by an unexpected event, a window a little too short), and late events, each read off the trace.
 */
class ExplainTest {

    record Login(String user, boolean ok, long ts) {
        @Override
        public String toString() {
            return (ok ? "ok" : "fail") + "@" + ts;
        }
    }

    /** Three failed logins in a row within 10 s. */
    private static final Pattern<Login> THREE_FAILS = Pattern.<Login>begin("first").where(l -> !l.ok())
            .next("second").where(l -> !l.ok()).next("third").where(l -> !l.ok()).within(Duration.ofSeconds(10));

    /** The pattern on an engine of two shards under a harness, with a producer. */
    private static final class Run {
        final CepEngine<Login> engine = CepEngine.<Login>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Login>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        final PatternStream<Login> fails = engine.keyBy(Login::user).pattern(THREE_FAILS).select((k, m, ts) -> { });
        final Producer<Login> in = engine.newProducer();
        final CepTestHarness<Login> h = CepTestHarness.start(engine);
    }

    @Test
    void strictContiguityBrokenByAnUnexpectedEventIsNamed() {
        Run run = new Run();
        PatternStream<Login> fails = run.fails;
        Producer<Login> in = run.in;
        CepTestHarness<Login> h = run.h;
        fails.startTrace("alice");
        in.send(new Login("alice", false, 1_000));
        in.send(new Login("alice", false, 2_000));
        in.send(new Login("alice", true, 3_000));
        in.send(new Login("alice", false, 4_000));
        in.send(new Login("bob", false, 4_000));
        in.watermark(5_000);

        Explanation why = h.explain(fails, "alice");
        List<TraceEntry.Ended> broken = why.ended(EndReason.CONDITION_FALSE);
        assertEquals(2, broken.size(), why.toString()); // #1 (two fails) and #2 (one fail) both wanted a fail
        assertEquals("third", broken.get(0).stage(), why.toString());
        assertTrue(broken.get(0).detail().startsWith("strict contiguity broken"), why.toString());
        assertEquals(3_000, broken.get(0).time());
        assertEquals(List.of(), why.completed());
        assertTrue(why.toString().contains("#1 ended, condition false at stage 'third': strict contiguity broken"),
                why.toString());
        assertEquals(4, why.entries().stream().filter(TraceEntry.Event.class::isInstance).count(),
                "every event of alice, and none of bob's: " + why);
        h.close();
    }

    @Test
    void aWatermarkThatDoesNotMoveLeavesEventsWaitingAndAWindowTooShortTimesOut() {
        Run run = new Run();
        PatternStream<Login> fails = run.fails;
        Producer<Login> in = run.in;
        CepTestHarness<Login> h = run.h;
        fails.startTrace("alice");
        in.send(new Login("alice", false, 1_000));
        in.send(new Login("alice", false, 6_000));
        in.send(new Login("alice", false, 11_500));
        // no watermark yet: the events wait for it, and the trace shows nothing matched
        assertEquals(List.of(), h.explain(fails, "alice").entries());

        in.watermark(20_000);
        Explanation why = h.explain(fails, "alice");
        TraceEntry.Ended timedOut = why.ended(EndReason.TIMED_OUT).get(0);
        assertEquals(1, timedOut.partialMatch(), why.toString());
        assertEquals(11_000, timedOut.time(), "the window of 10 s closed 1 ms before... " + why);
        assertEquals("third", timedOut.stage());
        assertTrue(why.entries().contains(new TraceEntry.Watermark(20_000)), why.toString());
        h.close();
    }

    @Test
    void lateEventsAreShownWithTheWatermarkTheyMissed() {
        Run run = new Run();
        PatternStream<Login> fails = run.fails;
        Producer<Login> in = run.in;
        CepTestHarness<Login> h = run.h;
        fails.startTrace("alice");
        in.watermark(5_000);
        in.send(new Login("alice", false, 4_000));

        Explanation why = h.explain(fails, "alice");
        assertEquals(List.of(new TraceEntry.Watermark(5_000), new TraceEntry.Late(4_000,
                new Login("alice", false, 4_000), 5_000)), why.entries());
        assertTrue(why.toString().contains("late event fail@4000: at or behind the watermark t=5000"), why.toString());
        h.close();
    }

    @Test
    void tracingStartsAndStopsAtItsPointOfTheInputAndIsBounded() throws Exception {
        Run run = new Run();
        PatternStream<Login> fails = run.fails;
        Producer<Login> in = run.in;
        CepTestHarness<Login> h = run.h;
        in.send(new Login("alice", false, 1_000)); // before the trace: its partial match is numbered when first seen
        in.send(new Login("bob", false, 1_000));
        fails.startTrace("alice", 3);
        fails.startTrace("bob");
        for (String user : List.of("alice", "bob")) {
            in.send(new Login(user, false, 2_000));
            in.send(new Login(user, false, 3_000));
        }
        in.watermark(3_500);
        Explanation bob = h.explain(fails, "bob");
        assertEquals(1, bob.completed().size(), bob.toString());
        assertEquals(1, bob.completed().get(0).partialMatch(), "the partial match begun before the trace: " + bob);
        Explanation why = h.explain(fails, "alice");
        assertEquals(3, why.entries().size(), why.toString());
        assertEquals(bob.entries().size() - 3, why.droppedEntries(), why.toString());
        assertEquals(new TraceEntry.Watermark(3_500), why.entries().get(2));

        var stopped = fails.stopTrace("alice");
        in.send(new Login("alice", false, 4_000));
        in.watermark(4_500);
        h.runUntilIdle();
        assertEquals(why.entries(), stopped.get(0, TimeUnit.SECONDS).entries(), "stopped before the later events");
        var after = fails.explain("alice");
        h.runUntilIdle();
        assertNull(after.get(0, TimeUnit.SECONDS));
        assertThrows(IllegalStateException.class, () -> h.explain(fails, "alice"));
        assertThrows(IllegalArgumentException.class, () -> fails.startTrace("alice", 0));
        h.close();
    }

    @Test
    void aRunningEngineTracesFromAnyThread() throws Exception {
        CepEngine<Login> engine = CepEngine.<Login>builder().shards(2)
                .watermarks(WatermarkStrategy.<Login>noWatermarks().withTimestampAssigner((e, ts) -> e.ts())).build();
        PatternStream<Login> fails = engine.keyBy(Login::user).pattern(THREE_FAILS).select((k, m, ts) -> { });
        Producer<Login> in = engine.newProducer();
        engine.start();
        try {
            fails.startTrace("alice").get(10, TimeUnit.SECONDS);
            for (long t = 1; t <= 3; t++) {
                in.send(new Login("alice", false, t));
            }
            in.watermark(10);
            // asked behind the events in alice's shard inbox: answered once they are matched
            Explanation why = fails.stopTrace("alice").get(10, TimeUnit.SECONDS);
            assertEquals(1, why.completed().size(), why.toString());
            assertEquals("pattern " + fails.id(), why.subject());
        } finally {
            engine.close();
        }
    }
}

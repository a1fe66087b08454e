package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.ConditionException;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.agent.ErrorHandler;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The engine's error handler when a pattern condition throws and the pattern has no dead-letter handler: by
 * default the shard stops and {@code close()} reports the failure (and the dead shard refuses input instead of
 * swallowing it); with {@code ErrorHandler.logAndContinue} the failure is logged and the shard goes on, as if the
 * event that threw had not been sent. Real shard threads (the error handler is the worker's), one or two shards,
 * a few events: the outcome does not depend on scheduling.
 */
@Tag("stress")
class ConditionErrorHandlingTest {

    record Ev(String key, char kind, int seq, long ts) {
    }

    private static final int BAD = 13;

    /** An order followed by a shipment within 1 s; the shipment condition throws on event {@link #BAD}. */
    private static Pattern<Ev> fragileOrderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> {
                    if (e.seq() == BAD) {
                        throw new IllegalStateException("bad record " + BAD);
                    }
                    return e.kind() == 's';
                }).within(Duration.ofSeconds(1));
    }

    private static CepEngine.Builder<Ev> builder(int shards) {
        return CepEngine.<Ev>builder().shards(shards).clock(new ManualClock(0)).inboxCapacity(64)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()));
    }

    private static String describe(Object key, io.cepheus.nfa.Match<Ev> m, long ts) {
        return key + " " + m.allEvents().stream().map(e -> Integer.toString(e.seq())).collect(Collectors.joining(","))
                + " @" + ts;
    }

    private static String keyOnOtherShardThan(String key) {
        for (int i = 0; ; i++) {
            if (CepEngine.shardOf("k" + i, 2) != CepEngine.shardOf(key, 2)) {
                return "k" + i;
            }
        }
    }

    @Test
    void byDefaultTheShardStopsCloseReportsTheFailureAndTheDeadShardRefusesInput() {
        CepEngine<Ev> engine = builder(2).build(); // default error handler: stop
        engine.keyBy(Ev::key).pattern(fragileOrderThenShipment());
        Producer<Ev> in = engine.newProducer();
        engine.start();
        String other = keyOnOtherShardThan("u1");
        in.send(new Ev("u1", 'o', 12, 100));
        in.send(new Ev("u1", 's', BAD, 110));
        in.send(new Ev(other, 'o', 20, 105));
        in.watermark(200); // releases the events: the condition throws on the shard thread

        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a bound against hanging, not a speed
        while (engine.failure().isEmpty()) {
            assertTrue(System.nanoTime() < giveUp, "the shard did not fail");
            Thread.yield(); // two cores: leave the shard threads room
        }
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> in.send(new Ev("u1", 's', 14, 300)), "a stopped shard must not swallow an event");
        assertTrue(refused.getMessage().contains("closed"), refused.getMessage());

        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> engine.close(Duration.ofSeconds(60)));
        assertTrue(closed.getMessage().contains("shard failed"), closed.getMessage());
        UserCodeException failure = assertInstanceOf(UserCodeException.class, closed.getCause());
        assertEquals("condition", failure.function());
        ConditionException cause = assertInstanceOf(ConditionException.class, failure.getCause());
        assertEquals("ship", cause.stage());
        assertEquals("bad record " + BAD, cause.getCause().getMessage());
        assertEquals(failure, engine.failure().orElseThrow());
    }

    /** A logger that keeps what it is given; called on shard threads. */
    static final class RecordingLogger implements System.Logger {
        record Entry(Level level, String message, Throwable thrown) {
        }

        final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();

        @Override
        public String getName() {
            return "recording";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            entries.add(new Entry(level, msg, thrown));
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            entries.add(new Entry(level, format, null));
        }
    }

    /** A pattern's outputs: matches with the watermark that released them, and timeouts. */
    private static PatternStream<Ev> recordInto(PatternStream<Ev> stream, ConcurrentLinkedQueue<String> out) {
        return stream.process((key, m, ctx) -> out.add("match " + describe(key, m, ctx.timestamp()) + " wm "
                        + ctx.currentWatermark()))
                .timeouts((key, m, ts) -> out.add("timeout " + describe(key, m, ts)));
    }

    @Test
    void logAndContinueLogsTheFailureAndTheShardGoesOnWithEverythingElse() {
        RecordingLogger logger = new RecordingLogger();
        CepEngine<Ev> engine = builder(1).errorHandler(ErrorHandler.logAndContinue(logger)).build();
        ConcurrentLinkedQueue<String> fragile = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> robust = new ConcurrentLinkedQueue<>();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        recordInto(keyed.pattern(fragileOrderThenShipment()), fragile);
        // a second pattern on the same shard, whose conditions do not throw: it must not suffer from the first
        recordInto(keyed.pattern(Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofSeconds(1))), robust);
        Producer<Ev> in = engine.newProducer();
        engine.start();
        // one watermark releases all of these; the fragile condition throws on the third
        in.send(new Ev("u1", 'o', 12, 100));
        in.send(new Ev("u3", 'o', 15, 105)); // never shipped: must time out at 105 + 1000
        in.send(new Ev("u1", 's', BAD, 110));
        in.send(new Ev("u1", 's', 14, 120)); // released by the same watermark, after the failure
        in.send(new Ev("u2", 'o', 16, 130));
        in.send(new Ev("u2", 's', 17, 140));
        in.watermark(200);
        // later input
        in.send(new Ev("u1", 'o', 20, 300));
        in.send(new Ev("u1", 's', 21, 310));
        in.watermark(400);
        in.close();
        engine.close(Duration.ofSeconds(60)); // no exception: the failure was handled

        assertTrue(engine.failure().isEmpty());
        List<RecordingLogger.Entry> logged = List.copyOf(logger.entries);
        assertEquals(1, logged.size(), "one failure, logged once: " + logged);
        assertEquals(System.Logger.Level.ERROR, logged.get(0).level());
        UserCodeException failure = assertInstanceOf(UserCodeException.class, logged.get(0).thrown());
        ConditionException thrown = assertInstanceOf(ConditionException.class, failure.getCause());
        assertEquals("bad record " + BAD, thrown.getCause().getMessage());

        // as if the event that threw had not been sent: the rest of its watermark is matched at that watermark
        assertEquals(List.of("match u1 12,14 @120 wm 200", "match u2 16,17 @140 wm 200", "match u1 20,21 @310 wm 400",
                "timeout u3 15 @1105"), List.copyOf(fragile));
        assertEquals(List.of("match u1 12,13 @110 wm 200", "match u2 16,17 @140 wm 200", "match u1 20,21 @310 wm 400",
                "timeout u3 15 @1105"), List.copyOf(robust));
        EngineMetrics m = engine.metrics();
        assertEquals(8, m.total(ShardMetrics::events));
        assertEquals(1, m.total(ShardMetrics::deadLetters), "the event that threw is counted");
        assertEquals(0, m.total(ShardMetrics::keys), "nothing left behind: " + m);
        assertEquals(0, m.total(ShardMetrics::partialMatches));
        assertEquals(0, m.total(ShardMetrics::bufferedEvents));
    }

    @Test
    void logAndContinueInProcessingTimeMatchesTheNextEventsAndFreesTheKeyOfTheOneThatThrew() {
        RecordingLogger logger = new RecordingLogger();
        CepEngine<Ev> engine = builder(1).errorHandler(ErrorHandler.logAndContinue(logger)).build();
        ConcurrentLinkedQueue<String> out = new ConcurrentLinkedQueue<>();
        // the first stage throws: on a key without state, the event that throws is the key's first
        engine.keyBy(Ev::key).pattern(Pattern.<Ev>begin("order").where(e -> {
            if (e.seq() == BAD) {
                throw new IllegalStateException("bad record " + BAD);
            }
            return e.kind() == 'o';
        }).followedBy("ship").where(e -> e.kind() == 's')).inProcessingTime()
                .select((key, m, ts) -> out.add("match " + describe(key, m, ts)));
        Producer<Ev> in = engine.newProducer();
        engine.start();
        in.send(new Ev("u9", 'o', BAD, 100));
        in.send(new Ev("u1", 'o', 20, 110));
        in.send(new Ev("u1", 's', 21, 120));
        in.close();
        engine.close(Duration.ofSeconds(60));

        assertTrue(engine.failure().isEmpty());
        assertEquals(1, logger.entries.size(), "logged once: " + logger.entries);
        assertEquals(List.of("match u1 20,21 @0"), List.copyOf(out), "processing time: the manual clock's 0");
        EngineMetrics m = engine.metrics();
        assertEquals(1, m.total(ShardMetrics::deadLetters));
        assertEquals(0, m.total(ShardMetrics::keys), "u9 holds nothing: its id must be free: " + m);
    }
}

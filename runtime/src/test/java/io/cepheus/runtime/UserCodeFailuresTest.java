package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.ConditionException;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.agent.ErrorAction;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the engine does when user code throws: the shard finishes the batch (every key advanced, nothing leaked),
 * then the failure goes to the dead-letter handler or the engine's error handler, never silently anywhere.
 */
class UserCodeFailuresTest {

    record Ev(String key, char kind, long ts) {
    }

    private static Pattern<Ev> orderThenShipment() {
        return Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').within(Duration.ofMillis(1_000));
    }

    private static CepEngine.Builder<Ev> builder() {
        return CepEngine.<Ev>builder().shards(1).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>forMonotonousTimestamps().withTimestampAssigner((e, ts) -> e.ts()));
    }

    /** Records what the error handler was given and decides with a fixed action. */
    private static final class RecordingErrorHandler implements io.cepheus.runtime.agent.ErrorHandler {
        final List<Throwable> errors = new ArrayList<>();
        private final ErrorAction action;

        RecordingErrorHandler(ErrorAction action) {
            this.action = action;
        }

        @Override
        public ErrorAction onError(String roleName, Throwable error) {
            errors.add(error);
            return action;
        }
    }

    /**
     * The audit's case: a match handler throws for u1 only. The watermark must still reach u2, whose partial match
     * times out on the final flush, and no state may be left behind.
     */
    @Test
    void aThrowingMatchHandlerUnderLogAndContinueLeavesEveryOtherKeyConsistent() {
        RecordingErrorHandler errors = new RecordingErrorHandler(ErrorAction.CONTINUE);
        CepEngine<Ev> engine = builder().errorHandler(errors).build();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> {
                    if (key.equals("u1")) {
                        throw new IllegalStateException("handler bug for u1");
                    }
                    out.add("match " + key + " @" + ts);
                })
                .timeouts((key, m, ts) -> out.add("timeout " + key + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 100));
        in.send(new Ev("u2", 'o', 105));
        in.send(new Ev("u1", 's', 110));
        in.send(new Ev("u3", 'o', 112));
        in.send(new Ev("u3", 's', 120));
        in.watermark(200);
        harness.runUntilIdle();

        assertEquals(List.of("match u3 @120"), out, "u3 matched after u1's handler threw, in the same watermark");
        assertEquals(1, errors.errors.size());
        UserCodeException failure = assertInstanceOf(UserCodeException.class, errors.errors.get(0));
        assertEquals("match handler", failure.function());
        assertEquals("pattern 0", failure.operator());
        assertEquals("u1", failure.key());
        assertEquals(110, failure.timestamp());
        assertEquals("handler bug for u1", failure.getCause().getMessage());
        assertTrue(failure.getMessage().contains("match handler of pattern 0 threw on key u1 at timestamp 110"),
                failure.getMessage());

        harness.close();
        assertEquals(List.of("match u3 @120", "timeout u2 @1105"), out, "u2 still timed out on the final flush");
        ShardMetrics m = engine.metrics().shards().get(0);
        assertEquals(0, m.keys(), "no key left behind");
        assertEquals(0, m.partialMatches());
        assertEquals(0, m.sharedBufferEntries());
        assertEquals(2, m.matches(), "u1's match was produced and counted; only its handler failed");
    }

    /**
     * A skip strategy that throws on a miss ({@code skipToFirst("ship").throwExceptionOnMiss()}) meets a match
     * without the stage: the failure is the pattern's, reported like a throwing function, and the rest of the batch
     * (u2 after u1 in the same watermark) is matched as usual; nothing is left behind.
     */
    @Test
    void aSkipStrategyThatThrowsOnAMissIsReportedAndTheOtherKeysStillMatch() {
        RecordingErrorHandler errors = new RecordingErrorHandler(ErrorAction.CONTINUE);
        CepEngine<Ev> engine = builder().errorHandler(errors).build();
        List<String> out = new ArrayList<>();
        Pattern<Ev> orderThenMaybeShipment = Pattern.<Ev>begin("order",
                        io.cepheus.pattern.AfterMatchSkipStrategy.skipToFirst("ship").throwExceptionOnMiss())
                .where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> e.kind() == 's').optional()
                .followedBy("pay").where(e -> e.kind() == 'p').within(Duration.ofMillis(1_000));
        engine.keyBy(Ev::key).pattern(orderThenMaybeShipment)
                .select((key, m, ts) -> out.add("match " + key + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 100));
        in.send(new Ev("u1", 'p', 110)); // matches without "ship": the strategy throws
        in.send(new Ev("u2", 'o', 111));
        in.send(new Ev("u2", 's', 112));
        in.send(new Ev("u2", 'p', 113));
        in.watermark(200);
        harness.runUntilIdle();

        assertEquals(List.of("match u2 @113"), out, "u2 matched after u1's skip failed, in the same watermark");
        assertEquals(1, errors.errors.size());
        UserCodeException failure = assertInstanceOf(UserCodeException.class, errors.errors.get(0));
        assertEquals("after-match skip strategy", failure.function());
        assertEquals("u1", failure.key());
        assertEquals(110, failure.timestamp());
        assertInstanceOf(io.cepheus.nfa.SkipStrategyException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().startsWith("Could not skip to stage 'ship'"),
                failure.getCause().getMessage());

        harness.close();
        assertEquals(List.of("match u2 @113"), out);
        ShardMetrics m = engine.metrics().shards().get(0);
        assertEquals(0, m.keys(), "no key left behind");
        assertEquals(0, m.partialMatches());
        assertEquals(0, m.sharedBufferEntries());
        assertEquals(1, m.matches(), "u1's match was dropped, not counted");
    }

    /**
     * Under {@code OverflowPolicy.FAIL} the event that would break a key's bound is not applied (the NFA rolls the
     * step back): a dead letter, naming the bound; the key keeps its partial matches and the batch goes on.
     */
    @Test
    void anEventBreakingTheBoundUnderFailIsADeadLetterAndTheBatchGoesOn() {
        List<String> dead = new ArrayList<>();
        CepEngine<Ev> engine = builder().nfaOptions(io.cepheus.nfa.NfaOptions.defaults()
                .withMaxPartialMatchesPerKey(2).withOverflowPolicy(io.cepheus.nfa.OverflowPolicy.FAIL)).build();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> out.add("match " + key + " @" + ts))
                .deadLetters((key, e, ts, error) -> dead.add(key + " " + e.kind() + "@" + ts + " "
                        + error.getClass().getSimpleName()));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 100));
        in.send(new Ev("u1", 'o', 101));
        in.send(new Ev("u1", 'o', 102)); // a third partial match: over the bound
        in.send(new Ev("u2", 'o', 103));
        in.send(new Ev("u2", 's', 104));
        in.send(new Ev("u1", 's', 105));
        in.watermark(200);
        harness.runUntilIdle();
        harness.close();

        assertEquals(List.of("u1 o@102 PartialMatchLimitException"), dead);
        assertEquals(List.of("match u2 @104", "match u1 @105", "match u1 @105"), out);
        ShardMetrics m = engine.metrics().shards().get(0);
        assertEquals(0, m.keys(), "no key left behind");
        assertEquals(0, m.sharedBufferEntries());
    }

    @Test
    void withoutAnErrorHandlerTheHarnessThrowsAtTheEndOfTheBatch() {
        CepEngine<Ev> engine = builder().build();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> {
                    if (key.equals("u1")) {
                        throw new IllegalStateException("boom");
                    }
                    out.add("match " + key);
                });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 100));
        in.send(new Ev("u1", 's', 110));
        in.send(new Ev("u2", 'o', 111));
        in.send(new Ev("u2", 's', 112));
        in.watermark(200);

        UserCodeException e = assertThrows(UserCodeException.class, harness::runUntilIdle);
        assertEquals("boom", e.getCause().getMessage());
        assertEquals(List.of("match u2"), out, "the batch was finished before the failure was thrown");
    }

    @Test
    void aStopStopsTheWholeEngineWithoutAFinalFlush() {
        RecordingErrorHandler errors = new RecordingErrorHandler(ErrorAction.STOP);
        CepEngine<Ev> engine = builder().shards(2).errorHandler(errors).build();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> {
                    throw new IllegalStateException("always fails");
                })
                .timeouts((key, m, ts) -> out.add("timeout " + key));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        for (int k = 0; k < 8; k++) {
            in.send(new Ev("open" + k, 'o', 100 + k)); // partial matches that a final flush would time out
        }
        in.send(new Ev("u1", 'o', 150));
        in.send(new Ev("u1", 's', 160));
        in.watermark(200);

        IllegalStateException stopped = assertThrows(IllegalStateException.class, harness::runUntilIdle);
        assertInstanceOf(UserCodeException.class, stopped.getCause());
        assertEquals(1, errors.errors.size());
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> in.send(new Ev("u9", 'o', 300)), "a stopped engine takes no more input");
        assertTrue(refused.getMessage().startsWith("the engine takes no more input (its inboxes are closed): it stopped"
                + " after a failure (match handler of pattern 0 threw"), refused.getMessage());
        assertSame(stopped.getCause(), refused.getCause(), "the send names the failure that stopped the engine");
        assertThrows(IllegalStateException.class, harness::close);
        assertEquals(List.of(), out, "no shard flushed timeouts as if the input had ended");
    }

    @Test
    void aConditionWithoutADeadLetterHandlerIsReportedNamingTheStageAndMatchingGoesOn() {
        RecordingErrorHandler errors = new RecordingErrorHandler(ErrorAction.CONTINUE);
        CepEngine<Ev> engine = builder().errorHandler(errors).build();
        Pattern<Ev> fragile = Pattern.<Ev>begin("order").where(e -> e.kind() == 'o')
                .followedBy("ship").where(e -> {
                    if (e.ts() == 113) {
                        throw new IllegalArgumentException("bad record");
                    }
                    return e.kind() == 's';
                });
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(fragile).select((key, m, ts) -> out.add("match " + key + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 100));
        in.send(new Ev("u1", 's', 113));
        in.send(new Ev("u1", 's', 120));
        in.watermark(200);
        harness.runUntilIdle();

        assertEquals(List.of("match u1 @120"), out, "the event the condition threw on was skipped, not the key");
        UserCodeException failure = assertInstanceOf(UserCodeException.class, errors.errors.get(0));
        assertEquals("condition", failure.function());
        ConditionException cause = assertInstanceOf(ConditionException.class, failure.getCause());
        assertEquals("ship", cause.stage());
        assertEquals(1, engine.metrics().shards().get(0).deadLetters());
        harness.close();
    }

    @Test
    void aDeadLetterHandlerReceivesFailedOutputsAndTheEngineGoesOn() {
        CepEngine<Ev> engine = builder().build(); // no error handler: anything reaching it would be thrown
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> {
                    throw new IllegalStateException("select " + key);
                })
                .timeouts((key, m, ts) -> {
                    throw new IllegalStateException("timeout " + key);
                })
                .lateEvents((key, e, ts) -> {
                    throw new IllegalStateException("late " + key);
                })
                .deadLetters(new DeadLetterHandler<>() {
                    @Override
                    public void onDeadLetter(Object key, Ev event, long timestamp, RuntimeException error) {
                        out.add("dead event " + key + " @" + timestamp + " " + error.getCause().getMessage());
                    }

                    @Override
                    public void onFailedOutput(Object key, Object output, long timestamp, RuntimeException error) {
                        UserCodeException u = (UserCodeException) error;
                        out.add("failed " + u.function() + " " + key + " @" + timestamp + " "
                                + ((io.cepheus.nfa.Match<?>) output).size() + " events");
                    }
                });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 100));
        in.send(new Ev("u1", 's', 110));
        in.send(new Ev("u2", 'o', 120));
        in.watermark(200);
        in.send(new Ev("u3", 'o', 150)); // late
        harness.runUntilIdle();
        harness.close();

        assertEquals(List.of("failed match handler u1 @110 2 events", "dead event u3 @150 late u3",
                "failed timeout handler u2 @1120 1 events"), out);
    }

    @Test
    void aDeadLetterHandlerThatDoesNotOverrideFailedOutputsLeavesThemToTheErrorHandler() {
        RecordingErrorHandler errors = new RecordingErrorHandler(ErrorAction.CONTINUE);
        CepEngine<Ev> engine = builder().errorHandler(errors).build();
        List<String> dead = new ArrayList<>();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> {
                    throw new IllegalStateException("select " + key);
                })
                .deadLetters((key, e, ts, error) -> dead.add("dead " + key));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        in.send(new Ev("u1", 'o', 100));
        in.send(new Ev("u1", 's', 110));
        in.watermark(200);
        harness.runUntilIdle();

        assertEquals(List.of(), dead);
        UserCodeException failure = assertInstanceOf(UserCodeException.class, errors.errors.get(0));
        assertEquals("match handler", failure.function());
        harness.close();
    }

    @Test
    void manyFailuresInOneBatchAreReportedOnceWithTheOthersAttached() {
        RecordingErrorHandler errors = new RecordingErrorHandler(ErrorAction.CONTINUE);
        CepEngine<Ev> engine = builder().errorHandler(errors).build();
        engine.keyBy(Ev::key).pattern(orderThenShipment())
                .select((key, m, ts) -> {
                    throw new IllegalStateException("select " + key);
                });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        int keys = UserCodeException.MAX_SUPPRESSED + 10;
        for (int k = 0; k < keys; k++) {
            in.send(new Ev("u" + k, 'o', 100 + 2 * k));
            in.send(new Ev("u" + k, 's', 101 + 2 * k));
        }
        in.watermark(1_000);
        harness.runUntilIdle();

        assertEquals(1, errors.errors.size(), "one report per batch");
        Throwable first = errors.errors.get(0);
        Throwable[] attached = first.getSuppressed();
        assertEquals(UserCodeException.MAX_SUPPRESSED + 1, attached.length, "the cap plus the count");
        String count = attached[attached.length - 1].getMessage();
        assertTrue(count.startsWith(keys + " user functions threw"), count);
        assertFalse(harness.runUntilIdle() > 0);
        harness.close();
    }
}

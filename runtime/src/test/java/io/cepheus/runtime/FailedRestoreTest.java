package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.RecordCodec;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A start whose restore fails (a corrupt snapshot, or one of an engine with other patterns) leaves the engine
 * failed for good, the same whether it was to run on threads or under a {@link CepTestHarness}: not started, no
 * worker thread, no input taken (sends fail as on an engine that was never started), {@code close()} returns at
 * once, and it cannot be started again (its shards may be half restored): a new engine is the way to retry.
 */
class FailedRestoreTest {

    record Ev(int key, char kind, long ts) {
    }

    static final EventCodec<Ev> EVENTS = RecordCodec.<Ev>builder().int32(Ev::key).int32(Ev::kind).int64(Ev::ts)
            .build(f -> new Ev(f.int32(), (char) f.int32(), f.int64()));
    static final EventCodec<Object> KEYS = RecordCodec.<Object>builder().int32(k -> (Integer) k)
            .build(f -> f.int32());

    /** An engine and its one producer. */
    record Fresh(CepEngine<Ev> engine, Producer<Ev> in) {
    }

    /** An engine of two shards and one pattern, 'a' then 'b' within {@code window} ms, with one producer. */
    private static Fresh engine(long window, List<String> out) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(2).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                .snapshots(EVENTS, KEYS).build();
        engine.keyBy(Ev::key)
                .pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedBy("b")
                        .where(e -> e.kind() == 'b').within(Duration.ofMillis(window)))
                .select((k, m, ts) -> out.add(k + " @" + ts));
        return new Fresh(engine, engine.newProducer());
    }

    /** A snapshot of an engine of {@code window} with a partial match on keys 1 and 2. */
    private static byte[] snapshot(long window) {
        Fresh fresh = engine(window, new ArrayList<>());
        CepTestHarness<Ev> h = CepTestHarness.start(fresh.engine());
        fresh.in().send(new Ev(1, 'a', 10));
        fresh.in().send(new Ev(2, 'a', 11));
        fresh.in().watermark(11);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream data = new DataOutputStream(bytes)) {
            h.snapshot(data, EVENTS, KEYS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertEquals(2, fresh.engine().metrics().total(ShardMetrics::partialMatches));
        return bytes.toByteArray();
    }

    private static final byte[] SNAPSHOT = snapshot(100);

    private static byte[] corrupt() {
        byte[] damaged = SNAPSHOT.clone();
        damaged[damaged.length - 1] ^= 1; // in the body: the checksum no longer matches
        return damaged;
    }

    /** A sound snapshot of an engine whose pattern has another window than {@link #engine}'s (100 ms). */
    private static final byte[] OTHER_PATTERN = snapshot(200);

    private static Set<Thread> shardThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("cepheus-shard-")).collect(Collectors.toSet());
    }

    /**
     * Checks the engine is failed: {@code failure} was thrown by its start; nothing runs, nothing is taken, it
     * closes at once, and neither start again nor more configuration is accepted.
     */
    private static void assertFailedForGood(Fresh fresh, Throwable failure, Set<Thread> threadsBefore) {
        CepEngine<Ev> engine = fresh.engine();
        Set<Thread> started = shardThreads();
        started.removeAll(threadsBefore);
        assertEquals(Set.of(), started, "a failed start starts no worker");
        assertFalse(engine.isStarted(), "a failed start leaves the engine not started");

        Producer<Ev> in = fresh.in();
        IllegalStateException send = assertThrows(IllegalStateException.class, () -> in.send(new Ev(1, 'b', 20)));
        assertTrue(send.getMessage().startsWith("the engine is not started: its start() failed"), send.getMessage());
        assertSame(failure, send.getCause());
        assertThrows(IllegalStateException.class, () -> in.watermark(20), "watermarks are not taken either");
        assertThrows(IllegalStateException.class, () -> in.checkpoint(1), "nor checkpoints");

        IllegalStateException again = assertThrows(IllegalStateException.class, engine::start);
        assertTrue(again.getMessage().contains("start() failed") && again.getMessage().contains("new engine"),
                again.getMessage());
        assertSame(failure, again.getCause());
        assertSame(failure, assertThrows(IllegalStateException.class, () -> CepTestHarness.start(engine)).getCause());
        assertSame(failure, assertThrows(IllegalStateException.class, () -> engine.restoreFrom(SNAPSHOT)).getCause());
        assertSame(failure, assertThrows(IllegalStateException.class, engine::newProducer).getCause());

        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> engine.close());
        engine.close(); // twice: still nothing to do
    }

    /** Both ways of refusing a snapshot, each under both ways of starting from {@link CepEngine#restoreFrom}. */
    private static void forEachBadSnapshot(Consumer<CepEngine<Ev>> start, String expectedReason) {
        for (byte[] bad : List.of(corrupt(), OTHER_PATTERN)) {
            Set<Thread> before = shardThreads();
            Fresh fresh = engine(100, new ArrayList<>());
            fresh.engine().restoreFrom(bad);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> start.accept(fresh.engine()));
            assertTrue(e.getMessage().startsWith("cannot restore the snapshot: "), e.getMessage());
            assertInstanceOf(IOException.class, e.getCause());
            String reason = bad == OTHER_PATTERN ? "operator 0" : expectedReason;
            assertTrue(e.getMessage().contains(reason), e.getMessage());
            assertFailedForGood(fresh, e, before);
        }
    }

    @Test
    void aFailedRestoreLeavesTheEngineFailedNotStarted() {
        forEachBadSnapshot(CepEngine::start, "checksum mismatch");
    }

    /** A harness starts from a snapshot given to restoreFrom as the engine does, and fails the same way. */
    @Test
    void aHarnessOnAnEngineWithABadSnapshotFailsTheSameWay() {
        forEachBadSnapshot(CepTestHarness::start, "checksum mismatch");
    }

    @Test
    void aHarnessRestoringBadBytesLeavesTheEngineFailedToo() {
        for (byte[] bad : List.of(corrupt(), OTHER_PATTERN)) {
            Set<Thread> before = shardThreads();
            Fresh fromBytes = engine(100, new ArrayList<>());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> CepTestHarness.restore(fromBytes.engine(), bad));
            assertFailedForGood(fromBytes, e, before);

            Fresh fromStream = engine(100, new ArrayList<>());
            IOException io = assertThrows(IOException.class, () -> CepTestHarness.restore(fromStream.engine(),
                    new DataInputStream(new ByteArrayInputStream(bad)), EVENTS, KEYS));
            assertFailedForGood(fromStream, io, before);
        }
    }

    /** What a failed start leaves behind is no reason not to try again on a new engine. */
    @Test
    void aNewEngineRestoresTheSoundSnapshotAfterAFailure() {
        CepEngine<Ev> failed = engine(100, new ArrayList<>()).engine();
        failed.restoreFrom(corrupt());
        assertThrows(IllegalStateException.class, failed::start);
        failed.close();

        List<String> out = new ArrayList<>();
        Fresh fresh = engine(100, out);
        fresh.engine().restoreFrom(SNAPSHOT);
        CepTestHarness<Ev> h = CepTestHarness.start(fresh.engine());
        fresh.in().send(new Ev(1, 'b', 20));
        fresh.in().send(new Ev(2, 'b', 21));
        h.close();
        assertEquals(List.of("1 @20", "2 @21"), out.stream().sorted().toList());
    }

    /** Two snapshots for one engine is a mistake, refused before anything is touched: the engine stays usable. */
    @Test
    void aHarnessRestoreOfAnEngineGivenRestoreFromIsRefused() {
        CepEngine<Ev> engine = engine(100, new ArrayList<>()).engine();
        engine.restoreFrom(SNAPSHOT);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CepTestHarness.restore(engine, SNAPSHOT));
        assertTrue(e.getMessage().contains("restoreFrom"), e.getMessage());
        assertFalse(engine.isStarted());
        CepTestHarness.start(engine).close();
    }
}

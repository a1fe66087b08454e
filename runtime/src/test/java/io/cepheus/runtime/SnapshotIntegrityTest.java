package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.RecordCodec;
import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * A damaged snapshot never restores: every single-bit flip, random multi-bit damage and every truncation of a
 * real snapshot (three shards, two patterns with partial matches, windows, gaps, buffered events) fails with a
 * message that names what is wrong, and nothing else escapes. The intact snapshot restores and continues with
 * exactly the output of an uninterrupted run.
 */
class SnapshotIntegrityTest {

    private static final long SEED = PropertySeeds.seed(0x5AFE_C4C5L);
    private static final int HEADER_BYTES = 16;

    record Ev(int key, char kind, long ts) {
    }

    static final EventCodec<Ev> EVENTS = RecordCodec.<Ev>builder().int32(Ev::key).int32(Ev::kind).int64(Ev::ts)
            .build(f -> new Ev(f.int32(), (char) f.int32(), f.int64()));
    static final EventCodec<Object> KEYS = RecordCodec.<Object>builder().int32(k -> (Integer) k)
            .build(f -> f.int32());

    private static CepEngine<Ev> engine(List<String> out) {
        return engine(out, EVENTS);
    }

    private static CepEngine<Ev> engine(List<String> out, EventCodec<Ev> events) {
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(3).inboxCapacity(64).clock(new ManualClock(0))
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, ts) -> e.ts()))
                .snapshots(events, KEYS).build();
        KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        keyed.pattern(Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').followedBy("b").where(e -> e.kind() == 'b')
                        .oneOrMore().followedBy("c").where(e -> e.kind() == 'c').within(Duration.ofMillis(60)))
                .select((k, m, ts) -> out.add("P0 " + k + " " + m + " @" + ts))
                .timeouts((k, m, ts) -> out.add("T0 " + k + " " + m + " @" + ts));
        keyed.pattern(Pattern.<Ev>begin("x", AfterMatchSkipStrategy.skipPastLastEvent()).where(e -> e.kind() == 'b')
                        .next("y").where(e -> e.kind() == 'b')
                        .within(Duration.ofMillis(15), WithinType.PREVIOUS_AND_CURRENT)
                        .followedBy("z").where(e -> e.kind() == 'c').within(Duration.ofMillis(80)))
                .select((k, m, ts) -> out.add("P1 " + k + " " + m + " @" + ts))
                .timeouts((k, m, ts) -> out.add("T1 " + k + " " + m + " @" + ts));
        return engine;
    }

    /** Two producers over keys 0..8; watermarks trail the events, so some stay buffered. */
    private static List<List<Ev>> input() {
        List<List<Ev>> producers = List.of(new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < 80; i++) {
            producers.get(i % 2).add(new Ev(i % 9, "abbcab".charAt(i % 6), 2L * i));
        }
        return producers;
    }

    private static void send(List<Producer<Ev>> in, CepTestHarness<Ev> h, List<List<Ev>> input, int from, int to) {
        for (int p = 0; p < in.size(); p++) {
            for (Ev e : input.get(p).subList(from, to)) {
                in.get(p).send(e);
                in.get(p).watermark(e.ts() - 12);
                h.runUntilIdle(); // the small inboxes hold only so much between two runs
            }
        }
    }

    private static final int CUT = 25;

    /** The snapshot every test damages, taken at {@link #CUT} with state on every shard. */
    private static byte[] snapshot(List<String> out) {
        CepEngine<Ev> engine = engine(out);
        List<Producer<Ev>> in = List.of(engine.newProducer(), engine.newProducer());
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        send(in, h, input(), 0, CUT);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream data = new DataOutputStream(bytes)) {
            h.snapshot(data, EVENTS, KEYS);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (ShardMetrics shard : engine.metrics().shards()) {
            assertTrue(shard.partialMatches() > 0 && shard.bufferedEvents() > 0, "state on every shard: " + shard);
        }
        return bytes.toByteArray();
    }

    private static final byte[] SNAPSHOT = snapshot(new ArrayList<>());

    private static CepEngine<Ev> fresh() {
        CepEngine<Ev> engine = engine(new ArrayList<>());
        engine.newProducer();
        engine.newProducer();
        return engine;
    }

    /** @return the reason restoring {@code bytes} gave, after checking it failed the documented way */
    private static String refusal(byte[] bytes, String what) {
        IllegalStateException e;
        try {
            CepTestHarness.restore(fresh(), bytes);
            return fail(what + " restored silently");
        } catch (IllegalStateException expected) {
            e = expected;
        } catch (RuntimeException other) {
            throw new AssertionError(what + ": " + other + " escaped instead of a clear refusal", other);
        }
        assertInstanceOf(IOException.class, e.getCause(), what + ": " + e);
        assertTrue(e.getMessage().startsWith("cannot restore the snapshot: "), e.getMessage());
        return e.getCause().getMessage();
    }

    private static void assertNames(String reason, String what, String... anyOf) {
        for (String words : anyOf) {
            if (reason.contains(words)) {
                return;
            }
        }
        fail(what + ": '" + reason + "' names none of " + Arrays.toString(anyOf));
    }

    /** What a flipped bit at a position is refused for: the field it falls in. */
    private static String[] expectedFor(int bit) {
        int field = bit / 32;
        return switch (field) {
            case 0 -> new String[] {"not a Cepheus engine snapshot"};
            case 1 -> new String[] {"format version"};
            case 2 -> new String[] {"truncated snapshot", "trailing bytes", "announces a body of -"};
            default -> new String[] {"checksum mismatch"};
        };
    }

    @Test
    void theIntactSnapshotRestoresAndContinuesAsAnUninterruptedRun() {
        List<String> expected = new ArrayList<>();
        CepEngine<Ev> whole = engine(expected);
        List<Producer<Ev>> wholeIn = List.of(whole.newProducer(), whole.newProducer());
        CepTestHarness<Ev> h = CepTestHarness.start(whole);
        send(wholeIn, h, input(), 0, input().get(0).size());
        h.close();

        List<String> actual = new ArrayList<>();
        byte[] bytes = snapshot(actual);
        CepEngine<Ev> second = engine(actual);
        List<Producer<Ev>> in = List.of(second.newProducer(), second.newProducer());
        CepTestHarness<Ev> h2 = CepTestHarness.restore(second, bytes);
        send(in, h2, input(), CUT, input().get(0).size());
        h2.close();
        assertEquals(expected, actual);
        assertTrue(expected.size() > 10, "the input produces output: " + expected);
    }

    @Test
    void everySingleBitFlipIsRefusedNamingTheDamagedField() {
        for (int bit = 0; bit < SNAPSHOT.length * 8; bit++) {
            byte[] damaged = SNAPSHOT.clone();
            damaged[bit / 8] ^= (byte) (1 << (bit % 8));
            String what = "bit " + bit + " of " + SNAPSHOT.length * 8 + " flipped";
            assertNames(refusal(damaged, what), what, expectedFor(bit));
        }
    }

    @Test
    void randomDamageIsRefused() {
        PropertySeeds.reportingSeed(SEED, "runtime", "SnapshotIntegrityTest", () -> {
            Random random = new Random(SEED);
            for (int trial = 0; trial < 3000; trial++) {
                byte[] damaged = SNAPSHOT.clone();
                String what;
                if (random.nextBoolean()) {
                    int flips = 2 + random.nextInt(15);
                    for (int i = 0; i < flips; i++) {
                        int bit = random.nextInt(damaged.length * 8);
                        damaged[bit / 8] ^= (byte) (1 << (bit % 8));
                    }
                    what = "trial " + trial + ": " + flips + " random bit flips";
                } else {
                    int from = random.nextInt(damaged.length);
                    int to = Math.min(damaged.length, from + 1 + random.nextInt(64));
                    for (int i = from; i < to; i++) {
                        damaged[i] = (byte) random.nextInt(256);
                    }
                    what = "trial " + trial + ": random bytes over [" + from + ", " + to + ")";
                }
                if (Arrays.equals(damaged, SNAPSHOT)) {
                    continue; // the flips cancelled out
                }
                assertNames(refusal(damaged, what), what, "not a Cepheus engine snapshot", "format version",
                        "truncated snapshot", "trailing bytes", "announces a body of -", "checksum mismatch");
            }
        });
    }

    /** A live engine refuses the same way when it starts, and starts no worker. */
    @Test
    void aDamagedSnapshotFailsTheEngineStart() {
        Random random = new Random(SEED);
        for (int trial = 0; trial < 50; trial++) {
            int bit = HEADER_BYTES * 8 + random.nextInt((SNAPSHOT.length - HEADER_BYTES) * 8);
            byte[] damaged = SNAPSHOT.clone();
            damaged[bit / 8] ^= (byte) (1 << (bit % 8));
            CepEngine<Ev> engine = fresh();
            engine.restoreFrom(damaged);
            IllegalStateException e = assertThrows(IllegalStateException.class, engine::start, "bit " + bit
                    + " (cepheus.seed=" + SEED + ")");
            assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
            engine.close();
        }
    }

    @Test
    void everyTruncationIsRefusedAsTruncated() throws IOException {
        for (int length = 0; length < SNAPSHOT.length; length++) {
            byte[] truncated = Arrays.copyOf(SNAPSHOT, length);
            String what = "truncated to " + length + " of " + SNAPSHOT.length + " bytes";
            assertNames(refusal(truncated, what), what, "truncated snapshot");
            IOException e = assertThrows(IOException.class, () -> CepTestHarness.restore(fresh(),
                    new DataInputStream(new ByteArrayInputStream(truncated)), EVENTS, KEYS), what + " (stream)");
            assertTrue(e.getMessage().contains("truncated snapshot"), what + " (stream): " + e.getMessage());
        }
    }

    /** From bytes the snapshot must be all there is; from a stream, it is read up to its end and no further. */
    @Test
    void bytesAfterTheSnapshotAreRefusedFromAnArrayButLeftInAStream() throws IOException {
        byte[] longer = Arrays.copyOf(SNAPSHOT, SNAPSHOT.length + 3);
        assertNames(refusal(longer, "3 bytes appended"), "3 bytes appended", "3 trailing bytes");
        DataInputStream stream = new DataInputStream(new ByteArrayInputStream(longer));
        CepTestHarness.restore(fresh(), stream, EVENTS, KEYS);
        assertEquals(3, stream.available());
    }

    /**
     * With a valid checksum, a part that does not hold exactly what its shard reads (a writer of another
     * operator version, or a bug) is refused too, naming the shard.
     */
    @Test
    void aPartNotReadToItsEndIsRefusedNamingTheShard() throws IOException {
        assertNames(refusal(reframe(SNAPSHOT, 1, +2), "2 bytes added to shard 1's part"), "2 bytes added",
                "shard 1's part has 2 of its");
        assertNames(refusal(reframe(SNAPSHOT, 2, -1), "shard 2's part cut by 1 byte"), "cut by 1 byte",
                "shard 2's part (");
        byte[] extraBody = Arrays.copyOf(body(SNAPSHOT), body(SNAPSHOT).length + 5);
        assertNames(refusal(frame(extraBody), "5 bytes after the parts"), "5 bytes after the parts",
                "5 bytes after the last shard's part");
    }

    /** An intact snapshot read with another event codec is refused as a codec mismatch, not as damage. */
    @Test
    void anIntactSnapshotReadWithAnotherCodecIsACodecMismatch() {
        EventCodec<Ev> narrower = RecordCodec.<Ev>builder().int32(Ev::key).int32(Ev::kind).int32(e -> (int) e.ts())
                .build(f -> new Ev(f.int32(), (char) f.int32(), f.int32()));
        CepEngine<Ev> other = engine(new ArrayList<>(), narrower);
        other.newProducer();
        other.newProducer();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CepTestHarness.restore(other, SNAPSHOT));
        String reason = e.getCause().getMessage();
        assertTrue(reason.contains("intact (its checksum matches)") && reason.contains("codec mismatch"), reason);
        assertTrue(reason.startsWith("shard "), reason);
    }

    /**
     * A checksum proves the bytes are the ones written, not that they fit this engine. Damage one byte at random,
     * recompute the checksum, and restore: the engine must refuse it clearly, or restore something it can run on
     * to the end of the input. It must never throw later, loop for ever or allocate what a count claims
     * ({@code -Dcepheus.seed=S}, {@code -Dcepheus.snapshot.damages=N}, default 300).
     */
    @Test
    void damageUnderARecomputedChecksumIsRefusedOrRunsToTheEnd() {
        long seed = Long.getLong("cepheus.seed", 20261201L);
        int damages = Integer.getInteger("cepheus.snapshot.damages", 300);
        byte[] body = body(SNAPSHOT);
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        int refused = 0;
        for (int i = 0; i < damages; i++) {
            byte[] damaged = body.clone();
            int at = random.nextInt(damaged.length);
            damaged[at] = (byte) random.nextInt(256);
            String what = "damage " + i + " (byte " + at + " set to " + damaged[at] + ", -Dcepheus.seed=" + seed + ")";
            CepEngine<Ev> fresh = engine(new ArrayList<>());
            List<Producer<Ev>> in = List.of(fresh.newProducer(), fresh.newProducer());
            CepTestHarness<Ev> h;
            try {
                h = CepTestHarness.restore(fresh, frame(damaged));
            } catch (IllegalStateException refusal) {
                assertTrue(refusal.getMessage().startsWith("cannot restore the snapshot: "), what + ": " + refusal);
                refused++;
                continue;
            } catch (OutOfMemoryError allocatedWhatACountClaimed) {
                throw new AssertionError(what + ": the restore ran out of memory", allocatedWhatACountClaimed);
            }
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                send(in, h, input(), CUT, input().get(0).size());
                h.close();
            }, () -> what + ": the restored engine did not finish");
        }
        System.out.println("snapshot damage under a recomputed checksum: " + damages + " from seed " + seed + ", "
                + refused + " refused at restore, " + (damages - refused) + " ran to the end");
    }

    private static byte[] body(byte[] snapshot) {
        return Arrays.copyOfRange(snapshot, HEADER_BYTES, snapshot.length);
    }

    /** A snapshot of {@code body} with a valid header and checksum. */
    private static byte[] frame(byte[] body) {
        CRC32C crc = new CRC32C();
        crc.update(body);
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + body.length);
        out.put(SNAPSHOT, 0, 8).putInt(body.length).putInt((int) crc.getValue()).put(body);
        return out.array();
    }

    /** Grows (zeros appended) or shrinks one shard's part, fixing its length prefix and the checksum. */
    private static byte[] reframe(byte[] snapshot, int shard, int delta) throws IOException {
        byte[] body = body(snapshot);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
        in.readInt();
        int operators = in.readInt();
        for (int i = 0; i < operators; i++) {
            in.readUTF();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.write(body, 0, body.length - in.available());
        for (int s = 0; s < 3; s++) {
            byte[] part = in.readNBytes(in.readInt());
            if (s == shard) {
                part = Arrays.copyOf(part, part.length + delta);
            }
            out.writeInt(part.length);
            out.write(part);
        }
        return frame(bytes.toByteArray());
    }
}

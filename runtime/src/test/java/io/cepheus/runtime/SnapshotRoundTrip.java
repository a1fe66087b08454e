package io.cepheus.runtime;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.testing.PropertySeeds;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the snapshot tests share: run an input uninterrupted, and again with a snapshot after step {@code cut} and
 * a restore into a fresh engine that continues; the caller compares the two outputs (and whatever else it checks).
 *
 * @param events writes and reads the engine's events
 * @param keys   writes and reads keys
 * @param <T>    the event type
 */
public record SnapshotRoundTrip<T>(EventCodec<T> events, EventCodec<Object> keys) {

    /** Feeds steps of a test's input; one instance per run, so it may keep state across the cut (a clock). */
    public interface Feed<T> {
        /** Sends steps {@code from} to {@code to - 1} of the input. */
        void steps(Producer<T> in, CepTestHarness<T> h, int from, int to);

        /** Ends the input. Default: closes the harness (engines that flush on close emit what remains). */
        default void finish(Producer<T> in, CepTestHarness<T> h) {
            h.close();
        }
    }

    /** Writes and reads int keys (boxed as {@link Integer}), the keys of the snapshot tests' streams. */
    public static final EventCodec<Object> INT_KEYS = new EventCodec<>() {
        @Override
        public void write(Object key, java.io.DataOutput out) throws IOException {
            out.writeInt((Integer) key);
        }

        @Override
        public Object read(java.io.DataInput in) throws IOException {
            return in.readInt();
        }
    };

    /** Checks one random case: a script, a cut within it, and a configuration number. */
    @FunctionalInterface
    public interface CutCheck {
        void check(List<Integer> script, int cut, int shape);
    }

    /**
     * Runs {@code check} on random scripts for {@link #script} (up to 70 steps), random cuts within them and
     * random configuration numbers in {@code [0, shapes)}, reporting the seed on failure.
     *
     * @param seed     the property's seed ({@code -Dcepheus.seed} overrides it, see {@link PropertySeeds})
     * @param test     the test class's name, for the rerun command
     * @param examples how many cases
     * @param shapes   how many configurations the test numbers
     */
    public static void forRandomCuts(long seed, String test, int examples, int shapes, CutCheck check) {
        PropertySeeds.reportingSeed(seed, "runtime", test, () -> qt().withFixedSeed(seed).withExamples(examples)
                .forAll(lists().of(integers().between(0, 69)).ofSizeBetween(0, 70), integers().between(0, 70),
                        integers().between(0, shapes - 1))
                .checkAssert((script, cut, shape) -> check.check(script, Math.min(cut, script.size()), shape)));
    }

    /**
     * A long script for {@link #script} that cycles through the event values in strides of {@code stride}, with a
     * watermark after every {@code watermarkEvery} events, lagging {@code 0 .. lagSpread - 1} behind the time.
     */
    public static List<Integer> steadyScript(int events, int stride, int watermarkEvery, int lagSpread) {
        List<Integer> script = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            script.add((i * stride) % 60);
            if (i % watermarkEvery == watermarkEvery - 1) {
                script.add(60 + i % lagSpread);
            }
        }
        return script;
    }

    /** The event of a script step: {@code value} is the step's value (below 60), {@code ts} its event time. */
    @FunctionalInterface
    public interface StepEvent<T> {
        T make(int step, int value, long ts);
    }

    /**
     * A feed of a random script, as the window and join snapshot tests draw it: a value below 60 is an event (the
     * time rises by {@code value % 4}; every value divisible by 7 is 6 ms behind it), a value of 60 or more a
     * watermark {@code value - 60} behind the time; the shards run after each step. It ends with a watermark at
     * the end of time.
     */
    public static <T> Feed<T> script(List<Integer> script, StepEvent<T> event) {
        long[] clock = {0};
        return new Feed<>() {
            @Override
            public void steps(Producer<T> in, CepTestHarness<T> h, int from, int to) {
                for (int i = from; i < to; i++) {
                    int v = script.get(i);
                    if (v >= 60) {
                        in.watermark(clock[0] - (v - 60));
                    } else {
                        clock[0] += v % 4;
                        in.send(event.make(i, v, clock[0] - (v % 7 == 0 ? 6 : 0)));
                    }
                    h.runUntilIdle();
                }
            }

            @Override
            public void finish(Producer<T> in, CepTestHarness<T> h) {
                in.watermark(Long.MAX_VALUE);
                h.runUntilIdle();
                h.close();
            }
        };
    }

    /**
     * The two runs and their engines.
     *
     * @param expected the uninterrupted run's outputs
     * @param actual   the outputs before the snapshot, then those of the restored engine
     * @param whole    the uninterrupted engine
     * @param restored the engine restored from the snapshot
     * @param <T>      the event type
     */
    public record Outcome<T>(List<String> expected, List<String> actual, CepEngine<T> whole, CepEngine<T> restored) {
    }

    /**
     * @param engine builds an engine whose outputs go to the given list
     * @param feed   a fresh feed per run
     * @param size   the number of steps
     * @param cut    the step before which the snapshot is taken, {@code 0 <= cut <= size}
     * @return both runs
     */
    public Outcome<T> run(Function<List<String>, CepEngine<T>> engine, Supplier<Feed<T>> feed, int size, int cut) {
        List<String> expected = new ArrayList<>();
        CepEngine<T> whole = engine.apply(expected);
        Producer<T> in = whole.newProducer();
        CepTestHarness<T> h = CepTestHarness.start(whole);
        Feed<T> uninterrupted = feed.get();
        uninterrupted.steps(in, h, 0, size);
        uninterrupted.finish(in, h);

        List<String> actual = new ArrayList<>();
        CepEngine<T> first = engine.apply(actual);
        Producer<T> in1 = first.newProducer();
        CepTestHarness<T> h1 = CepTestHarness.start(first);
        Feed<T> interrupted = feed.get();
        interrupted.steps(in1, h1, 0, cut);
        byte[] bytes = snapshot(h1);

        CepEngine<T> restored = engine.apply(actual);
        Producer<T> in2 = restored.newProducer();
        CepTestHarness<T> h2 = restore(restored, bytes);
        interrupted.steps(in2, h2, cut, size);
        interrupted.finish(in2, h2);
        return new Outcome<>(expected, actual, whole, restored);
    }

    /** @return a snapshot of the harness's engine, taken with this round trip's codecs */
    public byte[] snapshot(CepTestHarness<T> h) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            h.snapshot(out, events, keys);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @param snapshot a snapshot, maybe damaged after its 16-byte header
     * @return the same bytes with the header's checksum recomputed over the body, as a snapshot that was written that
     *     way would have it (a checksum proves the bytes are the ones written, not that they fit)
     */
    public static byte[] withChecksum(byte[] snapshot) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(snapshot, 16, snapshot.length - 16);
        java.nio.ByteBuffer.wrap(snapshot).putInt(12, (int) crc.getValue());
        return snapshot;
    }

    /** @return a harness on {@code engine}, restored from {@code bytes} (an {@link UncheckedIOException} if refused) */
    public CepTestHarness<T> restore(CepEngine<T> engine, byte[] bytes) {
        try {
            return CepTestHarness.restore(engine, new DataInputStream(new ByteArrayInputStream(bytes)), events, keys);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

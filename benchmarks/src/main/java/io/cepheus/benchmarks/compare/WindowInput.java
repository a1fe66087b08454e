package io.cepheus.benchmarks.compare;

import java.util.SplittableRandom;

/**
 * The window workload of the side-by-side comparison, generated deterministically: {@code length} elements over
 * {@code keys} keys ({@value #KEYS} for the benchmark), one element every {@code stepMs} ms of event time (1 for the benchmark) with
 * a little disorder, and the watermarks every engine is given.
 *
 * <ul>
 *   <li>Element {@code i} (from 0): drawn in order from {@code SplittableRandom(seed)}: key
 *       {@code nextInt(keys)}, amount {@code 1 + nextInt(100)}, delay {@code nextInt(maxDelayMs)}; its time is
 *       {@code START + i * stepMs - delay} ms ({@link #START} is 2024-01-01T00:00Z, aligned to every window size),
 *       so the stream is in time order up to {@code maxDelayMs} ({@value #MAX_DELAY_MS} for the benchmark). In the
 *       benchmark a key gets an element every ~10 s on average (1,000 elements per second of event time over
 *       10,000 keys): ~6 per tumbling minute, sessions of ~20 elements (a 30 s silence ends one with probability
 *       e^-3).</li>
 *   <li>After every {@value #WATERMARK_INTERVAL}th element {@code i} the watermark
 *       {@code START + i * stepMs - maxDelayMs} (strictly below every later element's time, so nothing is late);
 *       after the last element {@code Long.MAX_VALUE}, which fires every window still open.</li>
 * </ul>
 *
 * A shorter stream is a prefix of a longer one with the same parameters. The array is shared by every run and
 * never modified.
 *
 * @param length     the number of elements
 * @param seed       the generator's seed
 * @param keys       keys drawn from
 * @param stepMs     event time between consecutive positions
 * @param maxDelayMs elements come up to this many milliseconds (exclusive) before their position's time
 * @param events     the elements, in arrival order
 */
public record WindowInput(int length, long seed, int keys, long stepMs, int maxDelayMs, WindowEvent[] events) {

    /** Keys drawn from. */
    public static final int KEYS = 10_000;
    /** Elements in the full workload. */
    public static final int EVENTS = 1_000_000;
    /** The default seed. */
    public static final long DEFAULT_SEED = 42;
    /** Elements between two watermarks. */
    public static final int WATERMARK_INTERVAL = 1_000;
    /** 2024-01-01T00:00:00Z in epoch milliseconds. */
    public static final long START = 1_704_067_200_000L;
    /** The benchmark's disorder: elements come up to this many milliseconds (exclusive) early. */
    public static final int MAX_DELAY_MS = 200;

    /** Checks the length against the array. */
    public WindowInput {
        if (length < 1 || length != events.length) {
            throw new IllegalArgumentException("a window input of " + length + " elements cannot hold "
                    + events.length);
        }
    }

    /**
     * @param length how many elements, at least 1
     * @param seed   the seed
     * @return the first {@code length} elements of the benchmark's workload with that seed
     */
    public static WindowInput generate(int length, long seed) {
        return generate(length, seed, KEYS, 1, MAX_DELAY_MS);
    }

    /**
     * @param length     how many elements, at least 1
     * @param seed       the seed
     * @param keys       keys drawn from, at least 1
     * @param stepMs     event time between positions, at least 1
     * @param maxDelayMs the disorder, at least 1
     * @return the elements
     */
    public static WindowInput generate(int length, long seed, int keys, long stepMs, int maxDelayMs) {
        if (length < 1 || keys < 1 || stepMs < 1 || maxDelayMs < 1) {
            throw new IllegalArgumentException("need length, keys, stepMs and maxDelayMs >= 1, got " + length + ", "
                    + keys + ", " + stepMs + ", " + maxDelayMs);
        }
        SplittableRandom random = new SplittableRandom(seed);
        WindowEvent[] events = new WindowEvent[length];
        for (int i = 0; i < length; i++) {
            int key = random.nextInt(keys);
            long amount = 1 + random.nextInt(100);
            long delay = random.nextInt(maxDelayMs);
            events[i] = new WindowEvent(key, amount, START + i * stepMs - delay);
        }
        return new WindowInput(length, seed, keys, stepMs, maxDelayMs, events);
    }

    /**
     * @param i an element's position
     * @return the watermark to send right after element {@code i}, or {@code Long.MIN_VALUE} if none follows it
     *         (the final {@code Long.MAX_VALUE} is sent by the caller after the last element)
     */
    public long watermarkAfter(int i) {
        return (i + 1) % WATERMARK_INTERVAL == 0 ? START + i * stepMs - maxDelayMs : Long.MIN_VALUE;
    }

    /** @return whether this is the whole benchmark workload with the default seed */
    public boolean isFullDefault() {
        return length == EVENTS && seed == DEFAULT_SEED && keys == KEYS && stepMs == 1 && maxDelayMs == MAX_DELAY_MS;
    }
}

package io.cepheus.benchmarks.compare.agreement;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One randomized CEP case: one or two patterns on one keyed stream, and an input of events (1 to 3 keys, out of
 * order by up to 6 ms) interleaved with watermarks that trail the newest time by a random lag or jump past it
 * (so some events arrive late), ending with {@code Long.MAX_VALUE}; plus how the Cepheus engine runs it (1 or 3
 * shards, batch size, how often the harness drains) and whether timeouts are handled.
 *
 * @param seed     the seed it was drawn from
 * @param patterns the patterns, each run by its own Flink operator and all on one Cepheus keyed stream
 * @param input    events and watermarks, in arrival order
 * @param shards   the Cepheus engine's shards
 * @param batch    the engine's batch size
 * @param drain    0: the harness drains after every input item, 1: after a random third of them, 2: at the end
 * @param timeouts whether timed-out partial matches are handled (Flink materialises them only then)
 */
record RandomCepCase(long seed, List<RandomPattern> patterns, List<Item> input, int shards, int batch, int drain,
        boolean timeouts) {

    /** An input item: an event, or (when {@code event} is null) a watermark. */
    record Item(AgreementEvent event, long watermark) {

        boolean isWatermark() {
            return event == null;
        }

        @Override
        public String toString() {
            return event != null ? event.toString()
                    : "WM(" + (watermark == Long.MAX_VALUE ? "MAX" : Long.toString(watermark)) + ")";
        }
    }

    /** @return the case drawn from {@code seed}, or null when the draw is a shape the tests leave out */
    static RandomCepCase draw(long seed) {
        Random random = new Random(seed);
        int count = random.nextInt(4) == 0 ? 2 : 1;
        List<RandomPattern> patterns = new ArrayList<>();
        boolean explosive = false;
        for (int p = 0; p < count; p++) {
            RandomPattern pattern = RandomPattern.draw(random);
            if (pattern.hasEmptyLoopingGroup()) {
                return null;
            }
            // drawn apart from the case's stream, so the other draws stay what they were
            patterns.add(new Random(seed * 7 + 3 + p).nextInt(4) == 0 ? pattern.throwingOnMiss() : pattern);
            explosive |= pattern.explosive();
        }
        int shards = random.nextBoolean() ? 1 : 3;
        int batch = new int[] {1, 2, 3, 256}[random.nextInt(4)];
        int drain = random.nextInt(3);
        boolean timeouts = random.nextInt(8) != 0;

        int keys = 1 + random.nextInt(3);
        int events = 5 + random.nextInt(explosive ? 10 : 26);
        int disorder = random.nextInt(7);
        double watermarkChance = 0.05 + 0.4 * random.nextDouble();
        int maxLag = random.nextInt(6);
        List<Item> input = new ArrayList<>();
        long clock = 1;
        long watermark = Long.MIN_VALUE;
        long newest = 0;
        if (random.nextInt(4) == 0) {
            watermark = random.nextInt(3);
            input.add(new Item(null, watermark));
        }
        for (int i = 0; i < events; i++) {
            clock += random.nextInt(3);
            long ts = Math.max(1, clock - random.nextInt(disorder + 1));
            input.add(new Item(new AgreementEvent(random.nextInt(keys), "ABC".charAt(random.nextInt(3)),
                    random.nextInt(4), i, ts), 0));
            newest = Math.max(newest, ts);
            if (random.nextDouble() < watermarkChance) {
                long w = newest - random.nextInt(maxLag + 1) - (random.nextInt(4) == 0 ? random.nextInt(5) : 0);
                if (random.nextInt(10) == 0) {
                    w = newest + random.nextInt(12); // ahead of the data: later events are late
                }
                if (w < watermark) {
                    if (random.nextBoolean()) {
                        continue;
                    }
                    w = watermark;
                }
                input.add(new Item(null, w));
                watermark = w;
            }
        }
        if (random.nextInt(3) == 0) {
            input.add(new Item(null, Math.max(watermark, newest + random.nextInt(15))));
        }
        input.add(new Item(null, Long.MAX_VALUE));
        return new RandomCepCase(seed, List.copyOf(patterns), List.copyOf(input), shards, batch, drain, timeouts);
    }

    /**
     * For the processing-time runs: the clock time at which each input item arrives, the running maximum of the
     * events' timestamps and the watermarks' values (the last, {@code Long.MAX_VALUE}, becomes 20 ms after the
     * time before it, past every window and gap drawn, so that everything pending is due). The runs move the
     * clock through every millisecond on the way, as a real clock does.
     */
    long[] processingTimes() {
        long[] times = new long[input.size()];
        long now = 0;
        for (int i = 0; i < times.length; i++) {
            Item item = input.get(i);
            long t = !item.isWatermark() ? item.event().ts()
                    : item.watermark() == Long.MAX_VALUE ? now + 20 : item.watermark();
            now = Math.max(now, t);
            times[i] = now;
        }
        return times;
    }

    /**
     * A case over many keys: one pattern that cannot multiply its partial matches fast, and 3 to 6 events for each
     * of {@code keys} keys, interleaved at random, their timestamps rising a millisecond every 1,000 events and out
     * of order by up to 6 ms, a watermark 5 ms behind the newest time every 500 events (some events come late). A
     * window of a few milliseconds then spans thousands of keys: enough live keys for the engine's read-ahead paths
     * and its key dictionary's reuse of ids.
     *
     * @return the case drawn from {@code seed}, or null when its pattern is a shape the tests leave out
     */
    static RandomCepCase drawManyKeys(long seed, int keys) {
        Random random = new Random(seed);
        RandomPattern pattern = RandomPattern.draw(random);
        if (pattern.hasEmptyLoopingGroup() || pattern.explosive()) {
            return null;
        }
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            for (int n = 3 + random.nextInt(4); n > 0; n--) {
                order.add(k);
            }
        }
        java.util.Collections.shuffle(order, random);
        List<Item> input = new ArrayList<>();
        long newest = 0;
        for (int i = 0; i < order.size(); i++) {
            long ts = Math.max(1, 1 + i / 1_000 - random.nextInt(7));
            input.add(new Item(new AgreementEvent(order.get(i), "ABC".charAt(random.nextInt(3)), random.nextInt(4), i,
                    ts), 0));
            newest = Math.max(newest, ts);
            if (i % 500 == 499) {
                input.add(new Item(null, newest - 5));
            }
        }
        input.add(new Item(null, Long.MAX_VALUE));
        return new RandomCepCase(seed, List.of(pattern), List.copyOf(input), 1 + random.nextInt(2), 256, 2, true);
    }

    /** @return the keys of the input's events, in order of first appearance */
    List<Integer> keys() {
        return input.stream().filter(i -> !i.isWatermark()).map(i -> i.event().key()).distinct().toList();
    }

    /** @return this case with only the events of {@code key} (and every watermark) */
    RandomCepCase onlyKey(int key) {
        List<Item> kept = input.stream().filter(i -> i.isWatermark() || i.event().key() == key).toList();
        return new RandomCepCase(seed, patterns, kept, shards, batch, drain, timeouts);
    }

    /** @return whether a pattern has a {@code PREVIOUS_AND_CURRENT} gap */
    boolean hasGap() {
        return patterns.stream().anyMatch(p -> p.gapMs() > 0 || p.hasTimesWindow());
    }

    /**
     * @return this case with windows between the events of its patterns' quantified stages
     *         ({@link RandomPattern#withTimesWindows}), drawn apart from the case's stream; null if none got one
     */
    RandomCepCase withTimesWindows() {
        List<RandomPattern> decorated = new ArrayList<>();
        for (int p = 0; p < patterns.size(); p++) {
            decorated.add(patterns.get(p).withTimesWindows(new Random(seed * 11 + 5 + p)));
        }
        if (decorated.stream().noneMatch(RandomPattern::hasTimesWindow)) {
            return null;
        }
        return new RandomCepCase(seed, decorated, input, shards, batch, drain, timeouts);
    }

    /** @return the case, readable: its seed, engine settings, patterns and input */
    String describe() {
        StringBuilder sb = new StringBuilder("seed " + seed + ": shards=" + shards + " batch=" + batch + " drain="
                + drain + " timeouts=" + timeouts + "\n");
        for (int p = 0; p < patterns.size(); p++) {
            sb.append("  pattern ").append(p).append(": ").append(patterns.get(p)).append('\n');
        }
        return sb.append("  input: ").append(input).append('\n').toString();
    }
}

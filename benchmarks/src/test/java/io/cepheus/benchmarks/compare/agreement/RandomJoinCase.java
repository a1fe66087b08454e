package io.cepheus.benchmarks.compare.agreement;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongUnaryOperator;

/**
 * One randomized two-input join case: an interval join ({@code ij}: bounds, each inclusive or exclusive), a window
 * join ({@code wj}) or a window coGroup ({@code cg}) (tumbling or sliding with offset, or session; lateness; default,
 * count, purging count or continuous trigger), and an input of left and right elements for 1 to 3 keys (in order,
 * shuffled or boundedly out of order; at small and large time scales, sometimes below zero or near 10^9) with
 * watermarks for the left input, the right input or both.
 *
 * <p>Elements are strings {@code aL3@5}: key {@code a}, side {@code L}, id 3, event time 5 (the text a join emits).
 *
 * @param seed    the seed it was drawn from
 * @param family  {@code ij}, {@code wj} or {@code cg}
 * @param lower   interval join's lower bound
 * @param upper   interval join's upper bound
 * @param lowerExclusive whether the lower bound is exclusive
 * @param upperExclusive whether the upper bound is exclusive
 * @param assigner {@code tumbling}, {@code sliding} or {@code session}
 * @param size    window size
 * @param slide   sliding windows' slide
 * @param offset  the assigner's offset
 * @param gap     session gap
 * @param lateness allowed lateness
 * @param trigger {@code default}, {@code count}, {@code purgecount} or {@code cont}
 * @param triggerN the trigger's count or interval
 * @param shards  the Cepheus engine's shards
 * @param input   the input items, in arrival order
 * @param processingTime whether a window join or coGroup runs in processing time ({@link #inProcessingTime()})
 */
record RandomJoinCase(long seed, String family, long lower, long upper, boolean lowerExclusive,
        boolean upperExclusive, String assigner, long size, long slide, long offset, long gap, long lateness,
        String trigger, long triggerN, int shards, List<Item> input, boolean processingTime) {

    /**
     * An input item: an element of side {@code L} or {@code R}, or a watermark ({@code element} null) for side
     * {@code L}, {@code R} or {@code B} (both).
     */
    record Item(char side, String element, long ts) {

        boolean isWatermark() {
            return element == null;
        }

        @Override
        public String toString() {
            return element != null ? element : (side == 'B' ? "" : side + ":") + "wm@" + ts;
        }
    }

    /** @return the case of {@code family} drawn from {@code seed} */
    static RandomJoinCase draw(long seed, String family) {
        Random r = new Random(seed);
        int shards = 1 + r.nextInt(2);
        long[] scales = {1, 1, 1, 3, 37, 300, 1000};
        long sc = scales[r.nextInt(scales.length)];
        long base = r.nextInt(4) == 0 ? -(long) r.nextInt(100) * sc : r.nextInt(6) == 0 ? 1_000_000_000L : 0;
        LongUnaryOperator jitter = v -> sc > 1 && r.nextInt(4) == 0 ? v + r.nextInt(3) - 1 : v;
        long lower = 0;
        long upper = 0;
        boolean lowerExclusive = false;
        boolean upperExclusive = false;
        String assigner = "";
        long size = 0;
        long slide = 0;
        long offset = 0;
        long gap = 0;
        long lateness = 0;
        String trigger = "default";
        long triggerN = 0;
        if (family.equals("ij")) {
            lower = jitter.applyAsLong((r.nextInt(21) - 10) * sc);
            upper = r.nextInt(5) == 0 ? lower : Math.max(lower, jitter.applyAsLong(lower + r.nextInt(15) * sc));
            lowerExclusive = r.nextInt(3) == 0;
            upperExclusive = r.nextInt(3) == 0;
        } else {
            int a = r.nextInt(3);
            if (a == 0) {
                assigner = "tumbling";
                size = (1 + r.nextInt(12)) * sc;
                offset = r.nextInt(3) == 0 && size > 1 ? r.nextInt((int) (2 * size - 1)) - (size - 1) : 0;
            } else if (a == 1) {
                assigner = "sliding";
                size = (1 + r.nextInt(12)) * sc;
                slide = Math.max(1, jitter.applyAsLong((1 + r.nextInt((int) (size / sc) + 3)) * sc));
                offset = r.nextInt(4) == 0 && slide > 1 ? r.nextInt((int) (2 * slide - 1)) - (slide - 1) : 0;
            } else {
                assigner = "session";
                gap = Math.max(1, jitter.applyAsLong((1 + r.nextInt(8)) * sc));
            }
            lateness = Math.max(0, r.nextInt(3) == 0 ? jitter.applyAsLong((1 + r.nextInt(10)) * sc) : 0);
            int t = r.nextInt(10);
            if (t == 0) {
                trigger = "count";
                triggerN = 1 + r.nextInt(4);
            } else if (t == 1) {
                trigger = "cont";
                triggerN = (1 + r.nextInt(5)) * sc;
            } else if (t == 2) {
                trigger = "purgecount";
                triggerN = 1 + r.nextInt(4);
            }
        }
        int keys = 1 + r.nextInt(3);
        boolean small = r.nextBoolean();
        int[] spans = {6, 10, 20, 40, 80};
        int span = spans[r.nextInt(spans.length)];
        List<long[]> elements = new ArrayList<>(); // side (0 left), key, id, ts, arrival order
        for (int side = 0; side < 2; side++) {
            int n = small ? 5 + r.nextInt(8) : 5 + r.nextInt(36);
            for (int i = 0; i < n; i++) {
                elements.add(new long[] {side, r.nextInt(keys), i, base + jitter.applyAsLong(r.nextInt(span) * sc), 0});
            }
        }
        int order = r.nextInt(4);
        int disorder = 1 + r.nextInt(Math.max(1, span / 3));
        for (long[] e : elements) {
            long raw = Math.floorDiv(e[3] - base, sc);
            e[4] = switch (order) {
                case 0 -> raw * 1000 + r.nextInt(1000); // in order
                case 1 -> r.nextInt(1_000_000); // shuffled
                default -> (raw + r.nextInt(disorder + 1)) * 1000 + r.nextInt(1000); // bounded disorder
            };
        }
        elements.sort((x, y) -> Long.compare(x[4], y[4]));
        double watermarkChance = 0.05 + r.nextDouble() * 0.35;
        int maxLag = r.nextInt(Math.max(1, span / 2) + 1);
        boolean aggressive = r.nextInt(3) == 0;
        long left = Long.MIN_VALUE;
        long right = Long.MIN_VALUE;
        long newest = base;
        List<Item> input = new ArrayList<>();
        for (long[] e : elements) {
            if (r.nextDouble() < watermarkChance) {
                int sideChoice = r.nextInt(3);
                char side = sideChoice == 0 ? 'B' : sideChoice == 1 ? 'L' : 'R';
                long w = jitter.applyAsLong(newest - r.nextInt(maxLag + 1) * sc + (aggressive ? r.nextInt(4) * sc : 0));
                long last = side == 'L' ? left : side == 'R' ? right : Math.min(left, right);
                if (w > last) {
                    input.add(new Item(side, null, w));
                    if (side != 'R') {
                        left = Math.max(left, w);
                    }
                    if (side != 'L') {
                        right = Math.max(right, w);
                    }
                }
            }
            char side = e[0] == 0 ? 'L' : 'R';
            input.add(new Item(side, (char) ('a' + e[1]) + "" + side + e[2] + "@" + e[3], e[3]));
            newest = Math.max(newest, e[3]);
        }
        return new RandomJoinCase(seed, family, lower, upper, lowerExclusive, upperExclusive, assigner, size, slide,
                offset, gap, lateness, trigger, triggerN, shards, List.copyOf(input), false);
    }

    /**
     * @return this window join or coGroup in processing time: the processing-time assigners and continuous trigger,
     *         no lateness, each element arriving when the clock reaches its {@link #processingTimes() time};
     *         watermarks only move the clock
     */
    RandomJoinCase inProcessingTime() {
        return new RandomJoinCase(seed, family, lower, upper, lowerExclusive, upperExclusive, assigner, size, slide,
                offset, gap, 0, trigger, triggerN, shards, input, true);
    }

    /**
     * @return whether every time in the input is within a second of zero and windows are shorter than a second (the
     *         processing-time runs step the clock by 1 ms)
     */
    boolean nearZero() {
        return size + gap + triggerN <= 1_000 && input.stream().allMatch(t -> Math.abs(t.ts()) <= 1_000);
    }

    /**
     * For processing time: the clock time at which each input item arrives, the running maximum of the items' times
     * from 0; then the final watermarks, when every window has closed (a window's size, a session's gap and a
     * continuous trigger's interval after the last arrival, and 100 ms more).
     */
    long[] processingTimes() {
        long[] times = new long[input.size() + 1];
        long now = 0;
        for (int i = 0; i < input.size(); i++) {
            now = Math.max(now, input.get(i).ts());
            times[i] = now;
        }
        times[input.size()] = now + size + gap + triggerN + 100;
        return times;
    }

    /** @return an element's key */
    static String keyOf(String element) {
        return element.substring(0, 1);
    }

    /** @return an element's event time */
    static long timeOf(String element) {
        return Long.parseLong(element.substring(element.indexOf('@') + 1));
    }

    /** @return an element without its key: {@code L3@5} */
    static String withoutKey(String element) {
        return element.substring(1);
    }

    @Override
    public String toString() {
        String config = family.equals("ij")
                ? "interval join [" + lower + (lowerExclusive ? " excl" : "") + ", " + upper
                        + (upperExclusive ? " excl" : "") + "]"
                : (family.equals("wj") ? "window join " : "window coGroup ") + switch (assigner) {
                    case "tumbling" -> "tumbling " + size + " offset " + offset;
                    case "sliding" -> "sliding " + size + "/" + slide + " offset " + offset;
                    default -> "session " + gap;
                } + " lateness " + lateness + " trigger " + trigger + (trigger.equals("default") ? "" : " " + triggerN);
        return "seed " + seed + ": " + (processingTime ? "processing time, " : "") + config + ", " + shards
                + " shard(s)\n  input: " + input;
    }
}

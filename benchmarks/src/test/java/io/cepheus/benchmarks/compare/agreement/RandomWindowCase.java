package io.cepheus.benchmarks.compare.agreement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One randomized keyed event-time window case: an assigner (tumbling or sliding with or without offset, session
 * with a static or dynamic gap, global), a trigger (default, count, continuous event time), purging (a
 * {@code PurgingTrigger}, or Cepheus's discarding mode, which Flink expresses with the same trigger), an evictor
 * (count, time, delta; before or after the function), a function (sum and concatenation as reduce, count/sum as
 * aggregate, each with a process function for the window; or a process function over all elements), allowed
 * lateness, and an input of elements for 1 to 3 keys with watermarks, in order or out of order by up to 50 ms,
 * sometimes near {@code Long.MAX_VALUE} or below zero.
 *
 * @param seed      the seed it was drawn from
 * @param assigner  {@code tumbling}, {@code sliding}, {@code session}, {@code dynsession} or {@code global}
 * @param size      window size, or session gap (for {@code dynsession}: the gap is {@code 1 + (3 value + key) % size})
 * @param slide     sliding windows' slide
 * @param offset    the assigner's offset, when {@code hasOffset}
 * @param hasOffset whether the assigner is built with an offset
 * @param trigger   {@code default}, {@code count} or {@code cont} (continuous event time)
 * @param triggerN  the count trigger's count, or the continuous trigger's interval
 * @param purging   {@code none}, {@code trigger} (a purging trigger on both sides) or {@code mode} (Cepheus's
 *                  discarding mode; Flink's purging trigger)
 * @param evictor   {@code none}, {@code count}, {@code time} or {@code delta}
 * @param evictorN  the evictor's count, span or threshold
 * @param evictAfter whether the evictor runs after the function
 * @param function  {@code sum}, {@code concat}, {@code agg} or {@code proc}
 * @param lateness  allowed lateness
 * @param inOrder   whether elements come in time order
 * @param input     elements ({@link WindowElement}) and watermarks ({@link Long}), in arrival order, ending with the
 *                  final watermark
 * @param processingTime whether the case runs in processing time ({@link #inProcessingTime()})
 */
record RandomWindowCase(long seed, String assigner, long size, long slide, long offset, boolean hasOffset,
        String trigger, long triggerN, String purging, String evictor, long evictorN, boolean evictAfter,
        String function, long lateness, boolean inOrder, List<Object> input, boolean processingTime) {

    /** @return the case drawn from {@code seed} */
    static RandomWindowCase draw(long seed) {
        Random r = new Random(seed);
        String assigner = List.of("tumbling", "sliding", "session", "dynsession", "global").get(r.nextInt(5));
        long size = 2 + r.nextInt(39);
        long slide = size;
        long offset = 0;
        boolean hasOffset = false;
        if (assigner.equals("sliding")) {
            slide = Math.min(60, 1 + r.nextInt(r.nextInt(4) == 0 ? 60 : (int) size));
        }
        if (assigner.endsWith("session")) {
            size = 1 + r.nextInt(30);
        }
        if ((assigner.equals("tumbling") || assigner.equals("sliding")) && r.nextInt(5) < 2) {
            hasOffset = true;
            long bound = assigner.equals("tumbling") ? size : slide;
            offset = bound <= 1 ? 0 : r.nextInt((int) (2 * bound - 1)) - (bound - 1);
        }
        String trigger;
        if (assigner.equals("global")) {
            trigger = r.nextInt(4) == 0 ? "cont" : "count";
        } else {
            int x = r.nextInt(10);
            trigger = x < 5 ? "default" : x < 8 ? "count" : "cont";
        }
        long triggerN = trigger.equals("count") ? 1 + r.nextInt(4) : 1 + r.nextInt(25);
        int p = r.nextInt(10);
        String purging = p < 6 ? "none" : p < 8 ? "trigger" : "mode";
        int e = r.nextInt(12);
        String evictor = e < 6 ? "none" : e < 8 ? "count" : e < 10 ? "time" : "delta";
        long evictorN = switch (evictor) {
            case "count" -> 1 + r.nextInt(4);
            case "time" -> 1 + r.nextInt(30);
            case "delta" -> 1 + r.nextInt(8);
            default -> 0;
        };
        boolean evictAfter = r.nextBoolean();
        String function = List.of("sum", "agg", "proc", "concat").get(r.nextInt(4));
        long lateness = r.nextBoolean() ? 0 : 1 + r.nextInt(60);
        boolean inOrder = r.nextInt(4) == 0;

        List<Object> input = new ArrayList<>();
        int keys = 1 + r.nextInt(3);
        int n = 10 + r.nextInt(51);
        long clock = 0;
        long watermark = Long.MIN_VALUE;
        int step = 1 + r.nextInt(10);
        int disorder = inOrder ? 0 : 1 + r.nextInt(50);
        double watermarkChance = 0.05 + r.nextDouble() * 0.35;
        int shiftDraw = r.nextInt(60);
        long shift = shiftDraw < 8 ? -150 : shiftDraw == 8 ? Long.MAX_VALUE - 640 : 0;
        boolean ahead = r.nextInt(5) == 0;
        for (int i = 0; i < n; i++) {
            clock += r.nextInt(step + 1);
            long ts = clock - (disorder == 0 ? 0 : r.nextInt(disorder + 1));
            input.add(new WindowElement(1 + r.nextInt(keys), r.nextInt(10), ts + shift, Integer.toString(i)));
            if (r.nextDouble() < watermarkChance) {
                long w = (ahead ? clock + r.nextInt(30)
                        : clock - (disorder == 0 ? r.nextInt(5) : r.nextInt(disorder + 10) - 5)) + shift;
                if (w > watermark) {
                    watermark = w;
                    input.add(w);
                }
            }
        }
        RandomWindowCase c = new RandomWindowCase(seed, assigner, size, slide, offset, hasOffset, trigger, triggerN,
                purging, evictor, evictorN, evictAfter, function, lateness, inOrder, input, false);
        input.add(c.finalWatermark());
        return new RandomWindowCase(seed, assigner, size, slide, offset, hasOffset, trigger, triggerN, purging,
                evictor, evictorN, evictAfter, function, lateness, inOrder, List.copyOf(input), false);
    }

    /**
     * A case over many keys for the slice path's batched, read-ahead loading (from 16,384 live slices): sliding
     * windows of 10 slices, sum or count/sum, no or some lateness, discarding or not; 3 to 7 elements for each of
     * {@code keys} keys, interleaved at random, their timestamps rising a millisecond every 500 elements and out of
     * order by up to 10 ms, a watermark 8 ms behind the newest time every 500 elements.
     *
     * @return the case drawn from {@code seed}
     */
    static RandomWindowCase drawManyKeys(long seed, int keys) {
        Random r = new Random(seed);
        long slide = 2 + r.nextInt(4);
        String function = r.nextBoolean() ? "sum" : "agg";
        long lateness = r.nextBoolean() ? 0 : 1 + r.nextInt(20);
        String purging = r.nextInt(4) == 0 ? "mode" : "none";
        List<Integer> order = new ArrayList<>();
        for (int k = 1; k <= keys; k++) {
            for (int n = 3 + r.nextInt(5); n > 0; n--) {
                order.add(k);
            }
        }
        java.util.Collections.shuffle(order, r);
        List<Object> input = new ArrayList<>();
        long newest = Long.MIN_VALUE;
        long watermark = Long.MIN_VALUE;
        for (int i = 0; i < order.size(); i++) {
            long ts = i / 500 - r.nextInt(11);
            input.add(new WindowElement(order.get(i), r.nextInt(10), ts, Integer.toString(i)));
            newest = Math.max(newest, ts);
            if (i % 500 == 499 && newest - 8 > watermark) {
                watermark = newest - 8;
                input.add(watermark);
            }
        }
        input.add(Long.MAX_VALUE);
        return new RandomWindowCase(seed, "sliding", 10 * slide, slide, 0, false, "default", 0, purging, "none", 0,
                false, function, lateness, false, List.copyOf(input), false);
    }

    /**
     * @return this case in processing time: the processing-time variant of its assigner and trigger, no lateness
     *         (it applies to event time only), each element arriving when the clock reaches its
     *         {@link #processingTimes() processing time}; watermarks only move the clock
     */
    RandomWindowCase inProcessingTime() {
        return new RandomWindowCase(seed, assigner, size, slide, offset, hasOffset, trigger, triggerN, purging,
                evictor, evictorN, evictAfter, function, 0, inOrder, input, true);
    }

    /**
     * For processing time: the clock time at which each input item arrives, the running maximum of the elements'
     * timestamps and the watermarks' values (the last becomes 200 ms later, past every window, gap and interval
     * drawn). The runs move the clock through every millisecond on the way.
     */
    long[] processingTimes() {
        long[] times = new long[input.size()];
        long now = 0;
        for (int i = 0; i < times.length; i++) {
            Object item = input.get(i);
            long t = item instanceof WindowElement e ? e.ts() : i == times.length - 1 ? now + 200 : (Long) item;
            now = Math.max(now, t);
            times[i] = now;
        }
        return times;
    }

    /** The dynamic session gap of an element. */
    long dynamicGap(WindowElement e) {
        return 1 + (e.value() * 3 + e.key()) % size;
    }

    /**
     * {@code Long.MAX_VALUE}, except for a global window with a continuous trigger (which would fire every
     * interval to the end of time): then 60 ms past the newest time.
     */
    private long finalWatermark() {
        if (!(assigner.equals("global") && trigger.equals("cont"))) {
            return Long.MAX_VALUE;
        }
        long newest = Long.MIN_VALUE;
        for (Object o : input) {
            newest = Math.max(newest, o instanceof WindowElement e ? e.ts() : (Long) o);
        }
        return newest > Long.MAX_VALUE - 100 ? Long.MAX_VALUE - 1 : newest + 60;
    }

    /**
     * Whether the README's documented order difference applies: the result depends on the order of a window's
     * elements (a concatenation, a count or delta evictor) and Cepheus's order differs from Flink's by design —
     * slices combine out-of-order elements in time order, and a session keeps its elements in arrival order across
     * merges where Flink's follows its state merge.
     */
    boolean orderMayDiffer() {
        boolean orderSensitive = function.equals("concat") || evictor.equals("count") || evictor.equals("delta");
        return orderSensitive && (assigner.endsWith("session") || !inOrder && onSlices());
    }

    /** Whether Cepheus runs the case on slices (shared partial aggregates). */
    private boolean onSlices() {
        return (assigner.equals("tumbling") || assigner.equals("sliding")) && evictor.equals("none")
                && trigger.equals("default") && !function.equals("proc");
    }

    /**
     * Whether Flink's dynamic-gap session bug may apply (README): an element whose session window equals a merged
     * session exactly makes Flink lose the session's contents. Conservative: true if it happens either when
     * sessions stay forever or when they go at their cleanup time (a session fired and removed before the element
     * arrives does not merge with it).
     */
    boolean hitsFlinksEqualMergedSessionBug() {
        return assigner.equals("dynsession") && (equalsAMergedSession(false) || equalsAMergedSession(true));
    }

    private boolean equalsAMergedSession(boolean cleanup) {
        Map<Integer, List<long[]>> sessions = new HashMap<>(); // start, end, merged (0 or 1)
        long watermark = Long.MIN_VALUE;
        long[] times = processingTime ? processingTimes() : null;
        for (int i = 0; i < input.size(); i++) {
            Object o = input.get(i);
            // in processing time the clock is the watermark, and an element's session starts at its arrival
            long time = processingTime ? times[i] : o instanceof Long w ? w : Long.MIN_VALUE;
            if (time > watermark) {
                watermark = time;
                if (cleanup) {
                    long wm = watermark;
                    sessions.values().forEach(l -> l.removeIf(s -> s[1] - 1 + lateness <= wm));
                }
            }
            if (!(o instanceof WindowElement e)) {
                continue;
            }
            List<long[]> current = sessions.computeIfAbsent(e.key(), k -> new ArrayList<>());
            long start = processingTime ? times[i] : e.ts();
            long end = start + dynamicGap(e);
            for (long[] s : current) {
                if (s[0] == start && s[1] == end && s[2] == 1) {
                    return true;
                }
            }
            long[] w = {start, end, 0};
            List<long[]> kept = new ArrayList<>();
            boolean merged = false;
            for (long[] s : current) {
                if (s[0] <= w[1] && s[1] >= w[0]) { // Flink's TimeWindow.intersects: touching windows merge
                    merged |= !(s[0] == w[0] && s[1] == w[1]) || s[2] == 1;
                    w[0] = Math.min(w[0], s[0]);
                    w[1] = Math.max(w[1], s[1]);
                } else {
                    kept.add(s);
                }
            }
            if (cleanup && !merged && w[1] - 1 + lateness <= watermark) {
                continue; // late on its own: dropped
            }
            w[2] = merged ? 1 : 0;
            kept.add(w);
            sessions.put(e.key(), kept);
        }
        return false;
    }

    @Override
    public String toString() {
        String a = switch (assigner) {
            case "tumbling" -> "tumbling size=" + size + (hasOffset ? " offset=" + offset : "");
            case "sliding" -> "sliding size=" + size + " slide=" + slide + (hasOffset ? " offset=" + offset : "");
            case "session" -> "session gap=" + size;
            case "dynsession" -> "session dynamic gap 1 + (3 value + key) % " + size;
            default -> "global";
        };
        return "seed " + seed + ": " + (processingTime ? "processing time, " : "") + a + "; trigger " + trigger
                + (trigger.equals("default") ? "" : "(" + triggerN + ")") + "; purging " + purging + "; evictor "
                + evictor + (evictor.equals("none") ? "" : "(" + evictorN + (evictAfter ? ", after" : "") + ")")
                + "; " + function + "; lateness " + lateness
                + (inOrder ? "; in order" : "") + "\n  input: " + input;
    }
}

package io.cepheus.benchmarks.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.benchmarks.workloads.RunResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The guard of the window rows: on a small input shaped to exercise every assigner within a few seconds (100 keys,
 * an element every 200 ms with up to 2 s of disorder: an hour of event time, so 10-minute sliding windows and 30 s
 * sessions fire and close at intermediate watermarks), Cepheus's engine and Flink's real {@code WindowOperator}
 * fire exactly the same windows, with the same count and sum, after the same watermark; and both equal a naive
 * reference computed here from the elements (windows by arithmetic, sessions by sorting each key's times, each
 * result fired by the first watermark at or past the window's max timestamp).
 */
class FlinkWindowTranslationTest {

    private static final WindowInput INPUT = WindowInput.generate(20_000, 11, 100, 200, 2_000);

    @ParameterizedTest
    @EnumSource(WindowSpec.class)
    void cepheusAndFlinkFireTheSameWindowsAsTheReference(WindowSpec spec) throws Exception {
        RunResult cepheus = runOnce(new CepheusWindowContender(INPUT, spec));
        RunResult flink = runOnce(new FlinkWindowContender(INPUT, spec));
        RunResult reference = reference(INPUT, spec);

        assertTrue(reference.matches() >= 1_000, spec + ": too few windows to check anything: " + reference);
        assertEquals((long) INPUT.length() * spec.windowsPerElement(), reference.timeouts(), spec + ": reference");
        assertEquals(reference, cepheus, spec + ": Cepheus vs the reference");
        assertEquals(reference, flink, spec + ": Flink vs the reference");
        assertEquals(List.of(), WindowComparisons.of(INPUT, spec).specCheck().apply(cepheus));
    }

    @Test
    void theChecksumTellsWhichWatermarkFiredAWindow() {
        WindowTally early = new WindowTally();
        WindowTally late = new WindowTally();
        late.nextWatermark();

        early.result(3, 0, 60_000, 5, 250);
        late.result(3, 0, 60_000, 5, 250);

        assertNotEquals(early.result(), late.result());
    }

    /** Counts and sums per window by brute force; each window fired by the first watermark past its end - 1. */
    static RunResult reference(WindowInput input, WindowSpec spec) {
        List<Long> watermarks = new ArrayList<>();
        for (int i = 0; i < input.length(); i++) {
            long w = input.watermarkAfter(i);
            if (w != Long.MIN_VALUE) {
                watermarks.add(w);
            }
        }
        // (key, start, end) -> {count, sum}
        Map<List<Long>, long[]> windows = new HashMap<>();
        if (spec == WindowSpec.SESSION) {
            Map<Integer, List<WindowEvent>> byKey = new HashMap<>();
            for (WindowEvent e : input.events()) {
                byKey.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
            }
            long gap = 30_000;
            for (List<WindowEvent> events : byKey.values()) {
                events.sort((a, b) -> Long.compare(a.ts(), b.ts()));
                long start = 0;
                long end = Long.MIN_VALUE;
                long[] acc = null;
                for (WindowEvent e : events) {
                    if (acc == null || e.ts() > end) { // [ts, ts + gap) merges with a session it touches
                        if (acc != null) {
                            windows.put(List.of((long) e.key(), start, end), acc);
                        }
                        start = e.ts();
                        end = e.ts() + gap;
                        acc = new long[2];
                    }
                    end = Math.max(end, e.ts() + gap);
                    acc[0]++;
                    acc[1] += e.amount();
                }
                windows.put(List.of((long) events.get(0).key(), start, end), acc);
            }
        } else {
            long size = spec == WindowSpec.TUMBLING ? 60_000 : 600_000;
            long slide = spec == WindowSpec.TUMBLING ? 60_000 : 10_000;
            for (WindowEvent e : input.events()) {
                long last = Math.floorDiv(e.ts(), slide) * slide;
                for (long start = last; start > e.ts() - size; start -= slide) {
                    long[] acc = windows.computeIfAbsent(List.of((long) e.key(), start, start + size),
                            k -> new long[2]);
                    acc[0]++;
                    acc[1] += e.amount();
                }
            }
        }
        WindowTally tally = new WindowTally();
        windows.forEach((window, acc) -> {
            long maxTimestamp = window.get(2) - 1;
            int epoch = 1;
            while (epoch <= watermarks.size() && watermarks.get(epoch - 1) < maxTimestamp) {
                epoch++;
            }
            tally.epoch(epoch);
            tally.result(window.get(0).intValue(), window.get(1), window.get(2), acc[0], acc[1]);
        });
        return tally.result();
    }

    private static RunResult runOnce(Contender contender) throws Exception {
        try (Trial trial = contender.prepare()) {
            return trial.feed();
        }
    }
}

package io.cepheus.runtime.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.carrotsearch.hppc.IntArrayList;
import io.cepheus.nfa.testing.PropertySeeds;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FiringCalendarTest {

    @Test
    void timesComeOutEarliestFirstWithTheirKeys() {
        FiringCalendar calendar = FiringCalendar.keyOrdered();
        calendar.schedule(7, 300);
        calendar.schedule(3, 100);
        calendar.schedule(9, 300);
        calendar.schedule(1, 200);
        calendar.schedule(5, 100);
        assertEquals(List.of("100 [3, 5]", "200 [1]", "300 [7, 9]"), drain(calendar));
        assertTrue(calendar.isEmpty());
    }

    @Test
    void aKeyOrderedCalendarSortsEachTimesKeysAScheduleOrderedOneKeepsTheirOrder() {
        FiringCalendar sorted = FiringCalendar.keyOrdered();
        FiringCalendar asScheduled = FiringCalendar.scheduleOrdered();
        for (int key : new int[] {8, 2, 6, 4}) {
            sorted.schedule(key, 50);
            asScheduled.schedule(key, 50);
        }
        assertEquals(List.of("50 [2, 4, 6, 8]"), drain(sorted));
        assertEquals(List.of("50 [8, 2, 6, 4]"), drain(asScheduled));
    }

    @Test
    void matchesASortedListOfEntriesOnRandomSchedules() {
        long seed = PropertySeeds.seed(0xCA1E7DA5L);
        try {
            SplittableRandom random = new SplittableRandom(seed);
            for (int round = 0; round < 200; round++) {
                FiringCalendar calendar = FiringCalendar.keyOrdered();
                List<long[]> expected = new ArrayList<>();
                int entries = random.nextInt(60);
                for (int i = 0; i < entries; i++) {
                    int key = random.nextInt(30);
                    long time = random.nextInt(8) * 10L;
                    calendar.schedule(key, time);
                    expected.add(new long[] {time, key});
                    if (random.nextInt(10) == 0 && !calendar.isEmpty()) {
                        // draining the earliest time between schedules, as an owner does at a watermark
                        long earliest = calendar.earliest();
                        IntArrayList due = calendar.pollEarliest();
                        List<Long> dueKeys = new ArrayList<>();
                        for (int j = 0; j < due.size(); j++) {
                            dueKeys.add((long) due.get(j));
                        }
                        calendar.recycle(due);
                        List<Long> wanted = new ArrayList<>();
                        expected.removeIf(e -> {
                            if (e[0] == earliest) {
                                wanted.add(e[1]);
                                return true;
                            }
                            return false;
                        });
                        wanted.sort(null);
                        assertEquals(wanted, dueKeys, "time " + earliest);
                        assertTrue(expected.stream().allMatch(e -> e[0] > earliest), "nothing earlier is left");
                    }
                }
                expected.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < expected.size(); ) {
                    long time = expected.get(i)[0];
                    List<Long> keys = new ArrayList<>();
                    while (i < expected.size() && expected.get(i)[0] == time) {
                        keys.add(expected.get(i++)[1]);
                    }
                    lines.add(time + " " + keys);
                }
                assertEquals(lines, drain(calendar));
            }
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        }
    }

    private static List<String> drain(FiringCalendar calendar) {
        List<String> out = new ArrayList<>();
        while (!calendar.isEmpty()) {
            long time = calendar.earliest();
            IntArrayList due = calendar.pollEarliest();
            List<Integer> keys = new ArrayList<>();
            for (int i = 0; i < due.size(); i++) {
                keys.add(due.get(i));
            }
            calendar.recycle(due);
            out.add(time + " " + keys);
        }
        return out;
    }
}

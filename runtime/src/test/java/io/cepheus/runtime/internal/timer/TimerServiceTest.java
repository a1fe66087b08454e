package io.cepheus.runtime.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Examples of the {@link TimerService} contract; {@link TimerServicePropertyTest} checks it against a model. */
class TimerServiceTest {

    private final TimerService timers = new TimerService();
    private final Recorder fired = new Recorder();

    @Test
    void registeringTheSameTimerTwiceKeepsOne() {
        assertTrue(timers.registerEventTimeTimer(1, 7, 100));
        assertFalse(timers.registerEventTimeTimer(1, 7, 100));
        assertEquals(1, timers.eventTimeTimers());
        assertEquals(1, timers.timersOf(1));

        assertEquals(1, timers.advanceWatermark(100, fired));
        assertEquals(List.of("1/7@100"), fired.timers);
    }

    @Test
    void timersDifferingInOnePartAreDistinct() {
        assertTrue(timers.registerEventTimeTimer(1, 7, 100));
        assertTrue(timers.registerEventTimeTimer(2, 7, 100));
        assertTrue(timers.registerEventTimeTimer(1, 8, 100));
        assertTrue(timers.registerEventTimeTimer(1, 7, 101));
        assertEquals(4, timers.eventTimeTimers());
    }

    @Test
    void theTwoDomainsAreSeparate() {
        assertTrue(timers.registerEventTimeTimer(1, 7, 100));
        assertTrue(timers.registerProcessingTimeTimer(1, 7, 100));
        assertEquals(1, timers.eventTimeTimers());
        assertEquals(1, timers.processingTimeTimers());
        assertEquals(2, timers.timersOf(1));

        assertEquals(1, timers.advanceProcessingTime(100, fired));
        assertEquals(1, timers.eventTimeTimers());
        assertTrue(timers.hasEventTimeTimer(1, 7, 100));
        assertFalse(timers.hasProcessingTimeTimer(1, 7, 100));
        assertEquals(Long.MIN_VALUE, timers.currentWatermark());
    }

    @Test
    void deletedTimerDoesNotFireAndOthersDo() {
        timers.registerEventTimeTimer(1, 7, 100);
        timers.registerEventTimeTimer(1, 7, 200);
        timers.registerEventTimeTimer(2, 7, 100);

        assertTrue(timers.deleteEventTimeTimer(1, 7, 100));
        assertFalse(timers.deleteEventTimeTimer(1, 7, 100), "a second delete finds nothing");
        assertFalse(timers.deleteEventTimeTimer(1, 7, 150), "never registered");
        assertFalse(timers.deleteProcessingTimeTimer(1, 7, 200), "registered in the other domain");

        timers.advanceWatermark(1000, fired);
        assertEquals(List.of("2/7@100", "1/7@200"), fired.timers);
    }

    @Test
    void eventTimeTimerFiresWhenTheWatermarkReachesItsTimestamp() {
        timers.registerEventTimeTimer(1, 0, 100);
        assertEquals(0, timers.advanceWatermark(99, fired));
        assertEquals(99, timers.currentWatermark());
        assertEquals(1, timers.advanceWatermark(100, fired));
        assertEquals(List.of("1/0@100"), fired.timers);
        assertEquals(0, timers.eventTimeTimers());
        assertEquals(Long.MAX_VALUE, timers.nextEventTime());
    }

    @Test
    void firesInTimestampThenKeyThenNamespaceOrderWhateverTheRegistrationOrder() {
        List<long[]> all = new ArrayList<>();
        for (int key = 0; key < 3; key++) {
            for (long namespace = -1; namespace <= 1; namespace++) {
                for (long ts = 10; ts <= 12; ts++) {
                    all.add(new long[] {key, namespace, ts});
                }
            }
        }
        Collections.shuffle(all, new Random(42));
        for (long[] t : all) {
            timers.registerEventTimeTimer((int) t[0], t[1], t[2]);
        }

        assertEquals(27, timers.advanceWatermark(12, fired));
        List<String> expected = new ArrayList<>();
        for (long ts = 10; ts <= 12; ts++) {
            for (int key = 0; key < 3; key++) {
                for (long namespace = -1; namespace <= 1; namespace++) {
                    expected.add(key + "/" + namespace + "@" + ts);
                }
            }
        }
        assertEquals(expected, fired.timers);
    }

    @Test
    void timerRegisteredAtOrBelowTheWatermarkWhileFiringFiresInTheSameAdvance() {
        timers.registerEventTimeTimer(1, 0, 10);
        timers.registerEventTimeTimer(1, 0, 30);
        TimerHandler handler = (key, namespace, timestamp) -> {
            fired.onTimer(key, namespace, timestamp);
            if (timestamp == 10) {
                timers.registerEventTimeTimer(2, 0, 5);   // below the timer being fired: goes next
                timers.registerEventTimeTimer(2, 0, 50);  // the watermark: fires in this advance
                timers.registerEventTimeTimer(2, 0, 51);  // above the watermark: waits
            }
        };

        assertEquals(4, timers.advanceWatermark(50, handler));
        assertEquals(List.of("1/0@10", "2/0@5", "1/0@30", "2/0@50"), fired.timers);
        assertEquals(51, timers.nextEventTime());
    }

    @Test
    void handlerCanReRegisterTheTimerBeingFiredWhichThenFiresAgain() {
        timers.registerEventTimeTimer(1, 0, 10);
        boolean[] reRegistered = {false};
        TimerHandler handler = (key, namespace, timestamp) -> {
            fired.onTimer(key, namespace, timestamp);
            if (!reRegistered[0]) {
                reRegistered[0] = true;
                assertTrue(timers.registerEventTimeTimer(key, namespace, timestamp), "already removed, so new");
            }
        };
        assertEquals(2, timers.advanceWatermark(10, handler));
        assertEquals(List.of("1/0@10", "1/0@10"), fired.timers);
    }

    @Test
    void handlerCanDeleteADueTimerBeforeItFires() {
        timers.registerEventTimeTimer(1, 0, 10);
        timers.registerEventTimeTimer(2, 0, 20);
        timers.registerEventTimeTimer(3, 0, 30);
        TimerHandler handler = (key, namespace, timestamp) -> {
            fired.onTimer(key, namespace, timestamp);
            if (key == 1) {
                assertTrue(timers.deleteEventTimeTimer(2, 0, 20));
            }
        };
        assertEquals(2, timers.advanceWatermark(100, handler));
        assertEquals(List.of("1/0@10", "3/0@30"), fired.timers);
    }

    @Test
    void watermarkGoingBackwardsIsIgnored() {
        timers.advanceWatermark(100, fired);
        timers.registerEventTimeTimer(1, 0, 90);
        assertEquals(0, fired.timers.size(), "registering below the watermark does not fire by itself");

        assertEquals(1, timers.advanceWatermark(50, fired), "a late timer fires on the next advance call");
        assertEquals(100, timers.currentWatermark());
        assertEquals(List.of("1/0@90"), fired.timers);

        timers.registerEventTimeTimer(1, 0, 100);
        assertEquals(1, timers.advanceWatermark(100, fired), "an equal watermark also fires due timers");
    }

    @Test
    void processingTimeTimersFireWhenProcessingTimeReachesThem() {
        assertEquals(Long.MAX_VALUE, timers.nextProcessingTime());
        timers.registerProcessingTimeTimer(1, 0, 2_000);
        timers.registerProcessingTimeTimer(2, 0, 1_000);
        assertEquals(1_000, timers.nextProcessingTime());

        assertEquals(0, timers.advanceProcessingTime(999, fired));
        assertEquals(1, timers.advanceProcessingTime(1_500, fired));
        assertEquals(2_000, timers.nextProcessingTime());
        assertEquals(0, timers.advanceProcessingTime(1_200, fired), "processing time going back is ignored");
        assertEquals(1_500, timers.currentProcessingTime());
        assertEquals(1, timers.advanceProcessingTime(2_000, fired));
        assertEquals(List.of("2/0@1000", "1/0@2000"), fired.timers);
        assertEquals(Long.MAX_VALUE, timers.nextProcessingTime());
    }

    @Test
    void processingTimeTimerRegisteredWhileFiringAtOrBeforeNowFiresInTheSameAdvance() {
        timers.registerProcessingTimeTimer(1, 0, 10);
        TimerHandler handler = (key, namespace, timestamp) -> {
            fired.onTimer(key, namespace, timestamp);
            if (key == 1) {
                timers.registerProcessingTimeTimer(2, 0, 20);
                timers.registerProcessingTimeTimer(3, 0, 21);
            }
        };
        assertEquals(2, timers.advanceProcessingTime(20, handler));
        assertEquals(List.of("1/0@10", "2/0@20"), fired.timers);
        assertEquals(21, timers.nextProcessingTime());
    }

    @Test
    void perKeyCountsCoverBothDomainsAndDropToZero() {
        timers.registerEventTimeTimer(5, 0, 10);
        timers.registerEventTimeTimer(5, 1, 10);
        timers.registerProcessingTimeTimer(5, 0, 10);
        timers.registerEventTimeTimer(6, 0, 20);
        assertEquals(3, timers.timersOf(5));
        assertEquals(1, timers.timersOf(6));
        assertEquals(0, timers.timersOf(7));
        assertEquals(2, timers.keysWithTimers());

        timers.deleteEventTimeTimer(5, 1, 10);
        assertEquals(2, timers.timersOf(5));
        timers.advanceWatermark(10, fired);
        assertEquals(1, timers.timersOf(5));
        assertTrue(timers.hasTimers(5));
        timers.advanceProcessingTime(10, fired);
        assertEquals(0, timers.timersOf(5));
        assertFalse(timers.hasTimers(5));
        assertTrue(timers.hasTimers(6));
        assertEquals(1, timers.keysWithTimers());
    }

    @Test
    void handlerSeesItsKeyWithoutTheTimerBeingFired() {
        timers.registerEventTimeTimer(3, 0, 10);
        timers.registerEventTimeTimer(3, 0, 20);
        List<Integer> seen = new ArrayList<>();
        timers.advanceWatermark(20, (key, namespace, timestamp) -> seen.add(timers.timersOf(key)));
        assertEquals(List.of(1, 0), seen, "so the last timer's handler can free the key's state");
    }

    @Test
    void advancingTimeFromAHandlerIsRejected() {
        timers.registerEventTimeTimer(1, 0, 10);
        timers.registerProcessingTimeTimer(1, 0, 10);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> timers.advanceWatermark(10,
                (key, namespace, timestamp) -> timers.advanceWatermark(20, fired)));
        assertTrue(e.getMessage().contains("from a timer handler"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> timers.advanceProcessingTime(10,
                (key, namespace, timestamp) -> timers.advanceWatermark(20, fired)));
    }

    @Test
    void handlerExceptionPropagatesAndTheRemainingDueTimersFireOnTheNextAdvance() {
        timers.registerEventTimeTimer(1, 0, 10);
        timers.registerEventTimeTimer(2, 0, 20);
        timers.registerEventTimeTimer(3, 0, 30);
        RuntimeException boom = new RuntimeException("boom");
        TimerHandler failOnKey2 = (key, namespace, timestamp) -> {
            fired.onTimer(key, namespace, timestamp);
            if (key == 2) {
                throw boom;
            }
        };
        assertEquals(boom, assertThrows(RuntimeException.class, () -> timers.advanceWatermark(30, failOnKey2)));
        assertEquals(30, timers.currentWatermark());
        assertEquals(1, timers.eventTimeTimers(), "the failed timer is consumed, the next one still pending");

        assertEquals(1, timers.advanceWatermark(30, fired), "the service is usable again");
        assertEquals(List.of("1/0@10", "2/0@20", "3/0@30"), fired.timers);
    }

    @Test
    void negativeKeyIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> timers.registerEventTimeTimer(-1, 0, 10));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> timers.registerProcessingTimeTimer(-5, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> new TimerService(-1));
    }

    @Test
    void extremeTimestampsWork() {
        timers.registerEventTimeTimer(1, 0, Long.MAX_VALUE);
        timers.registerEventTimeTimer(1, 0, Long.MIN_VALUE);
        assertEquals(1, timers.advanceWatermark(Long.MIN_VALUE, fired), "MIN_VALUE is due from the start");
        assertEquals(0, timers.advanceWatermark(Long.MAX_VALUE - 1, fired));
        assertEquals(1, timers.advanceWatermark(Long.MAX_VALUE, fired), "the end-of-input watermark fires all");
        assertEquals(List.of("1/0@" + Long.MIN_VALUE, "1/0@" + Long.MAX_VALUE), fired.timers);
    }

    @Test
    void forEachVisitsEveryPendingTimerOnceAndForbidsChanges() {
        timers.registerEventTimeTimer(1, 0, 10);
        timers.registerEventTimeTimer(2, 0, 5);
        timers.registerEventTimeTimer(3, 9, 7);
        timers.registerProcessingTimeTimer(4, 0, 1);

        Recorder visited = new Recorder();
        timers.forEachEventTimeTimer(visited);
        Collections.sort(visited.timers);
        assertEquals(List.of("1/0@10", "2/0@5", "3/9@7"), visited.timers);

        Recorder visitedProcessing = new Recorder();
        timers.forEachProcessingTimeTimer(visitedProcessing);
        assertEquals(List.of("4/0@1"), visitedProcessing.timers);

        assertThrows(IllegalStateException.class, () -> timers.forEachEventTimeTimer(
                (key, namespace, timestamp) -> timers.deleteEventTimeTimer(key, namespace, timestamp)));
        assertThrows(IllegalStateException.class, () -> timers.forEachEventTimeTimer(
                (key, namespace, timestamp) -> timers.registerProcessingTimeTimer(key, namespace, 99)));
        assertEquals(3, timers.eventTimeTimers(), "nothing changed");
        assertTrue(timers.registerEventTimeTimer(8, 0, 1), "usable after a failed visit");
    }

    @Test
    void restoringByReRegisteringInAnyOrderFiresInTheSameOrder() {
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            timers.registerEventTimeTimer(random.nextInt(20), random.nextInt(3), random.nextInt(50));
        }
        TimerService restored = new TimerService(4);
        List<long[]> snapshot = new ArrayList<>();
        timers.forEachEventTimeTimer((key, namespace, timestamp) -> snapshot.add(new long[] {key, namespace,
                timestamp}));
        Collections.shuffle(snapshot, random);
        for (long[] t : snapshot) {
            assertTrue(restored.registerEventTimeTimer((int) t[0], t[1], t[2]));
        }

        Recorder firedByRestored = new Recorder();
        timers.advanceWatermark(Long.MAX_VALUE, fired);
        restored.advanceWatermark(Long.MAX_VALUE, firedByRestored);
        assertEquals(fired.timers, firedByRestored.timers);
    }

    /**
     * Many timers, so the arrays grow and the index's probe chains get long and shift back on deletion: delete
     * every other timer in a scrambled order, then everything left must fire, in order, exactly once.
     */
    @Test
    void manyTimersSurviveGrowthAndScrambledDeletion() {
        Random random = new Random(11);
        int count = 50_000;
        List<long[]> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // few distinct timestamps and namespaces: the order leans on every part of the triple
            all.add(new long[] {random.nextInt(1_000), random.nextInt(4), random.nextInt(100)});
        }
        int registered = 0;
        for (long[] t : all) {
            if (timers.registerEventTimeTimer((int) t[0], t[1], t[2])) {
                registered++;
            }
        }
        assertEquals(registered, timers.eventTimeTimers());

        Collections.shuffle(all, random);
        List<String> expected = new ArrayList<>();
        Set<String> deleted = new TreeSet<>();
        for (int i = 0; i < all.size(); i++) {
            long[] t = all.get(i);
            String name = t[0] + "/" + t[1] + "@" + t[2];
            if (i % 2 == 0 && !deleted.contains(name)) {
                assertTrue(timers.deleteEventTimeTimer((int) t[0], t[1], t[2]), name);
                deleted.add(name);
            }
        }
        TreeSet<long[]> left = new TreeSet<>((a, b) -> {
            int c = Long.compare(a[2], b[2]);
            c = c != 0 ? c : Long.compare(a[0], b[0]);
            return c != 0 ? c : Long.compare(a[1], b[1]);
        });
        for (long[] t : all) {
            if (!deleted.contains(t[0] + "/" + t[1] + "@" + t[2])) {
                left.add(t);
            }
        }
        for (long[] t : left) {
            expected.add(t[0] + "/" + t[1] + "@" + t[2]);
        }

        assertEquals(left.size(), timers.eventTimeTimers());
        assertEquals(left.size(), timers.advanceWatermark(Long.MAX_VALUE, fired));
        assertEquals(expected, fired.timers);
        assertEquals(0, timers.keysWithTimers());
    }

    /** Records fired timers as "key/namespace@timestamp". */
    private static final class Recorder implements TimerHandler {
        final List<String> timers = new ArrayList<>();

        @Override
        public void onTimer(int key, long namespace, long timestamp) {
            timers.add(key + "/" + namespace + "@" + timestamp);
        }
    }
}

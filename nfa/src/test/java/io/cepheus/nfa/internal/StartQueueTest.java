package io.cepheus.nfa.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link StartQueue} keeps the same array as the {@code java.util.PriorityQueue} Flink CEP keeps its partial
 * and completed matches in, after the same operations (add, poll, removeAll): equal keys, which decide what a
 * skip strategy releases first, end up in the same places. Keys come from a small range so that most
 * operations meet ties.
 */
class StartQueueTest {

    /** What Flink's queue holds: a key (the start event) and an identity to tell equal keys apart. */
    private record Item(long key, int id) {
    }

    private static final Comparator<Item> BY_KEY = Comparator.comparingLong(Item::key);

    @Test
    void pairsFollowThePriorityQueue() {
        Random rnd = new Random(42);
        for (int run = 0; run < 300; run++) {
            PriorityQueue<Item> jdk = new PriorityQueue<>(BY_KEY);
            int[] ids = new int[256];
            long[] keys = new long[256];
            int n = 0;
            int nextId = 0;
            for (int op = 0; op < 60; op++) {
                int what = rnd.nextInt(10);
                if (what < 6 && n < ids.length) {
                    // several added at once, as the matches of one step are
                    int batch = 1 + rnd.nextInt(4);
                    for (int b = 0; b < batch && n < ids.length; b++) {
                        Item item = new Item(rnd.nextInt(5), nextId++);
                        jdk.add(item);
                        ids[n] = item.id();
                        keys[n] = item.key();
                        StartQueue.siftUp(ids, keys, n++);
                    }
                } else if (what < 8 && n > 0) {
                    jdk.poll();
                    StartQueue.poll(ids, keys, n--);
                } else if (n > 0) {
                    long below = rnd.nextInt(5);
                    List<Item> pruned = new ArrayList<>();
                    for (Item item : jdk) {
                        if (item.key() < below) {
                            pruned.add(item);
                        }
                    }
                    jdk.removeAll(pruned);
                    int kept = 0;
                    for (int i = 0; i < n; i++) {
                        if (keys[i] >= below) {
                            ids[kept] = ids[i];
                            keys[kept++] = keys[i];
                        }
                    }
                    if (kept != n) {
                        StartQueue.heapify(ids, keys, kept);
                    }
                    n = kept;
                }
                assertArrayEquals(idsOf(jdk), java.util.Arrays.copyOf(ids, n), "run " + run + ", operation " + op);
            }
        }
    }

    @Test
    void insertAllIsOneAddAfterTheOther() {
        Random rnd = new Random(7);
        for (int run = 0; run < 200; run++) {
            int n = 1 + rnd.nextInt(20);
            PriorityQueue<Item> jdk = new PriorityQueue<>(BY_KEY);
            int[] ids = new int[n];
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                Item item = new Item(rnd.nextInt(4), i);
                jdk.add(item);
                ids[i] = i;
                keys[i] = item.key();
            }
            StartQueue.insertAll(ids, keys, n);
            assertArrayEquals(idsOf(jdk), ids, "run " + run);
        }
    }

    @Test
    void recordsFollowThePriorityQueue() {
        Random rnd = new Random(99);
        int s = KeyState.STRIDE;
        for (int run = 0; run < 300; run++) {
            PriorityQueue<Item> jdk = new PriorityQueue<>(BY_KEY);
            long[] records = new long[64 * s];
            int n = 0;
            int nextId = 0;
            for (int op = 0; op < 40; op++) {
                if (rnd.nextInt(3) > 0 && n < 64) {
                    Item item = new Item(rnd.nextInt(5), nextId++);
                    jdk.add(item);
                    records[n * s + KeyState.STATE_ENTRY] = item.id();
                    records[n * s + KeyState.START_TIME] = 10L * item.id();
                    records[n * s + KeyState.PREV_TIME] = 20L * item.id();
                    records[n * s + KeyState.START_SEQ] = item.key();
                    StartQueue.siftUp(records, n++);
                } else if (n > 0) {
                    long below = rnd.nextInt(5);
                    List<Item> pruned = new ArrayList<>();
                    for (Item item : jdk) {
                        if (item.key() < below) {
                            pruned.add(item);
                        }
                    }
                    jdk.removeAll(pruned);
                    int kept = 0;
                    for (int i = 0; i < n; i++) {
                        if (records[i * s + KeyState.START_SEQ] >= below) {
                            System.arraycopy(records, i * s, records, kept++ * s, s);
                        }
                    }
                    if (kept != n) {
                        StartQueue.heapify(records, kept);
                    }
                    n = kept;
                }
                int[] ids = new int[n];
                for (int i = 0; i < n; i++) {
                    int id = (int) records[i * s + KeyState.STATE_ENTRY];
                    ids[i] = id;
                    // the record moved as a whole
                    assertArrayEquals(new long[] {10L * id, 20L * id},
                            new long[] {records[i * s + KeyState.START_TIME], records[i * s + KeyState.PREV_TIME]});
                }
                assertArrayEquals(idsOf(jdk), ids, "run " + run + ", operation " + op);
            }
        }
    }

    private static int[] idsOf(PriorityQueue<Item> jdk) {
        Object[] array = jdk.toArray(); // the queue's array, in its order
        int[] out = new int[array.length];
        for (int i = 0; i < array.length; i++) {
            out[i] = ((Item) array[i]).id();
        }
        return out;
    }
}

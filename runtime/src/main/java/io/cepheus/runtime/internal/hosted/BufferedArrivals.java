package io.cepheus.runtime.internal.hosted;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * The arrival numbers of the events a hosted shard's patterns hold until the watermark passes them, by timestamp:
 * once a watermark released them, the host deletes them from where it keeps them. A binary min-heap over two
 * parallel primitive arrays (timestamp, arrival number); no allocation per event once grown.
 *
 * <p>Owned by the host's thread.
 */
final class BufferedArrivals {

    private long[] time = new long[64];
    private long[] arrival = new long[64];
    private int size;

    /** An event buffered at {@code timestamp} under {@code arrivalNumber}. */
    void add(long timestamp, long arrivalNumber) {
        if (size == time.length) {
            time = Arrays.copyOf(time, size * 2);
            arrival = Arrays.copyOf(arrival, size * 2);
        }
        int at = size++;
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (time[parent] <= timestamp) {
                break;
            }
            time[at] = time[parent];
            arrival[at] = arrival[parent];
            at = parent;
        }
        time[at] = timestamp;
        arrival[at] = arrivalNumber;
    }

    /** Hands out and forgets the arrival numbers of the events at or before {@code watermark}. */
    void releaseUpTo(long watermark, LongConsumer released) {
        while (size > 0 && time[0] <= watermark) {
            released.accept(arrival[0]);
            removeTop();
        }
    }

    /** @return how many events are held */
    int size() {
        return size;
    }

    private void removeTop() {
        size--;
        long t = time[size];
        long a = arrival[size];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && time[child + 1] < time[child]) {
                child++;
            }
            if (time[child] >= t) {
                break;
            }
            time[at] = time[child];
            arrival[at] = arrival[child];
            at = child;
        }
        time[at] = t;
        arrival[at] = a;
    }
}

package io.cepheus.runtime.internal.timer;

import java.util.TreeSet;

/**
 * The obviously correct timer service the property test compares {@link TimerService} with: per domain a
 * {@link TreeSet} of (timestamp, key, namespace) records, whose natural order is the firing order, and a time that
 * only moves forward. Per-key counts are computed by scanning. Single-threaded, test use only.
 */
final class TimerModel implements TimerOperations {

    record Timer(long timestamp, int key, long namespace) implements Comparable<Timer> {
        @Override
        public int compareTo(Timer other) {
            int c = Long.compare(timestamp, other.timestamp);
            if (c != 0) {
                return c;
            }
            c = Integer.compare(key, other.key);
            return c != 0 ? c : Long.compare(namespace, other.namespace);
        }
    }

    private final TreeSet<Timer> eventTime = new TreeSet<>();
    private final TreeSet<Timer> processingTime = new TreeSet<>();
    private long watermark = Long.MIN_VALUE;
    private long processingNow = Long.MIN_VALUE;

    @Override
    public boolean register(boolean eventTimeDomain, int key, long namespace, long timestamp) {
        return timers(eventTimeDomain).add(new Timer(timestamp, key, namespace));
    }

    @Override
    public boolean delete(boolean eventTimeDomain, int key, long namespace, long timestamp) {
        return timers(eventTimeDomain).remove(new Timer(timestamp, key, namespace));
    }

    @Override
    public int advance(boolean eventTimeDomain, long time, TimerHandler handler) {
        long now;
        if (eventTimeDomain) {
            watermark = Math.max(watermark, time);
            now = watermark;
        } else {
            processingNow = Math.max(processingNow, time);
            now = processingNow;
        }
        TreeSet<Timer> timers = timers(eventTimeDomain);
        int fired = 0;
        while (!timers.isEmpty() && timers.first().timestamp() <= now) {
            Timer t = timers.pollFirst();
            fired++;
            handler.onTimer(t.key(), t.namespace(), t.timestamp());
        }
        return fired;
    }

    @Override
    public long currentTime(boolean eventTimeDomain) {
        return eventTimeDomain ? watermark : processingNow;
    }

    @Override
    public long nextTime(boolean eventTimeDomain) {
        TreeSet<Timer> timers = timers(eventTimeDomain);
        return timers.isEmpty() ? Long.MAX_VALUE : timers.first().timestamp();
    }

    @Override
    public int size(boolean eventTimeDomain) {
        return timers(eventTimeDomain).size();
    }

    @Override
    public int timersOf(int key) {
        int count = 0;
        for (Timer t : eventTime) {
            count += t.key() == key ? 1 : 0;
        }
        for (Timer t : processingTime) {
            count += t.key() == key ? 1 : 0;
        }
        return count;
    }

    private TreeSet<Timer> timers(boolean eventTimeDomain) {
        return eventTimeDomain ? eventTime : processingTime;
    }
}

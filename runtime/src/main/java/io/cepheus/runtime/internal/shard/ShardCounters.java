package io.cepheus.runtime.internal.shard;

import io.cepheus.runtime.PatternMetrics;
import io.cepheus.runtime.ShardMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A shard's counters as readers on other threads see them: summed over the shard's operators and published at the
 * end of each batch with release writes, so counting costs no fence per event and a reader sees values at most one
 * batch old.
 *
 * <p>Written by the shard's thread ({@link #publish}); read by any thread ({@link #metrics}).
 */
final class ShardCounters {

    private static final int EVENTS = 0;
    private static final int LATE = 1;
    private static final int DEAD = 2;
    private static final int MATCHES = 3;
    private static final int TIMEOUTS = 4;
    private static final int PARTIAL = 5;
    private static final int BUFFERED = 6;
    private static final int ENTRIES = 7;
    private static final int KEYS = 8;
    private static final int WATERMARK = 9;
    private static final int REJECTED = 10;
    private final AtomicLongArray published = new AtomicLongArray(11);
    private final int shard;

    /** @param shard the shard's number */
    ShardCounters(int shard) {
        this.shard = shard;
        published.set(WATERMARK, Long.MIN_VALUE);
    }

    /**
     * Ends every operator's batch and publishes the sums. Shard thread.
     *
     * @param operators the shard's operators
     * @param events    events the shard received
     * @param keys      keys with pending state
     * @param watermark the shard's watermark
     */
    <T> void publish(List<ShardOperator<T>> operators, long events, long keys, long watermark) {
        long late = 0;
        long dead = 0;
        long matches = 0;
        long timeouts = 0;
        long partial = 0;
        long rejected = 0;
        long buffered = 0;
        long entries = 0;
        for (int i = 0; i < operators.size(); i++) {
            ShardOperator<T> op = operators.get(i);
            op.endOfBatch();
            late += op.lateEvents();
            dead += op.deadLetters();
            matches += op.matches();
            timeouts += op.timeouts();
            partial += op.partialMatches();
            rejected += op.rejectedPartialMatches();
            buffered += op.bufferedEvents();
            entries += op.bufferedEntries();
        }
        published.lazySet(EVENTS, events);
        published.lazySet(LATE, late);
        published.lazySet(DEAD, dead);
        published.lazySet(MATCHES, matches);
        published.lazySet(TIMEOUTS, timeouts);
        published.lazySet(PARTIAL, partial);
        published.lazySet(REJECTED, rejected);
        published.lazySet(BUFFERED, buffered);
        published.lazySet(ENTRIES, entries);
        published.lazySet(KEYS, keys);
        published.lazySet(WATERMARK, watermark);
    }

    /**
     * @param operators  the shard's operators (fixed once it runs), for each pattern's own published counters
     * @param queueDepth records waiting in the shard's inbox, read live
     * @return the counters as published at the end of the latest batch; any thread
     */
    <T> ShardMetrics metrics(List<ShardOperator<T>> operators, int queueDepth) {
        List<PatternMetrics> patterns = new ArrayList<>();
        for (ShardOperator<T> op : operators) {
            PatternMetrics p = op.publishedPatternMetrics();
            if (p != null) {
                patterns.add(p);
            }
        }
        return new ShardMetrics(shard, published.get(EVENTS), published.get(LATE), published.get(DEAD),
                published.get(MATCHES), published.get(TIMEOUTS), published.get(PARTIAL), published.get(REJECTED),
                published.get(BUFFERED), published.get(ENTRIES), published.get(KEYS), published.get(WATERMARK),
                queueDepth, patterns);
    }
}

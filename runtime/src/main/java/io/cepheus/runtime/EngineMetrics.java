package io.cepheus.runtime;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The engine's counters, per shard; read at any time without stopping the engine.
 *
 * @param shards one entry per shard
 */
public record EngineMetrics(List<ShardMetrics> shards) {

    /**
     * Copies the list.
     *
     * @param shards one entry per shard
     */
    public EngineMetrics {
        shards = List.copyOf(shards);
    }

    /**
     * @param counter e.g. {@code ShardMetrics::matches}
     * @return its sum over the shards
     */
    public long total(ToLongFunction<ShardMetrics> counter) {
        long sum = 0;
        for (ShardMetrics s : shards) {
            sum += counter.applyAsLong(s);
        }
        return sum;
    }

    /**
     * @param pattern a pattern's id ({@link PatternStream#id()})
     * @return its counters summed over the shards
     * @throws IllegalArgumentException if the engine has no pattern of that id
     */
    public PatternMetrics pattern(int pattern) {
        PatternMetrics sum = null;
        for (ShardMetrics s : shards) {
            for (PatternMetrics p : s.patterns()) {
                if (p.pattern() == pattern) {
                    sum = sum == null ? p : sum.plus(p);
                }
            }
        }
        if (sum == null) {
            throw new IllegalArgumentException("no pattern " + pattern + " on this engine");
        }
        return sum;
    }

    /** @return the lowest shard watermark: the engine's event-time progress */
    public long watermark() {
        long min = Long.MAX_VALUE;
        for (ShardMetrics s : shards) {
            min = Math.min(min, s.watermark());
        }
        return shards.isEmpty() ? Long.MIN_VALUE : min;
    }
}

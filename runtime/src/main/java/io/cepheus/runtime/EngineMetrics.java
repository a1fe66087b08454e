package io.cepheus.runtime;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The engine's counters, per shard; read at any time without stopping the engine.
 *
 * @param shards one entry per shard
 */
public record EngineMetrics(List<ShardMetrics> shards) {

    /** Copies the list. */
    public EngineMetrics {
        shards = List.copyOf(shards);
    }

    /** @param counter e.g. {@code ShardMetrics::matches} @return its sum over the shards */
    public long total(ToLongFunction<ShardMetrics> counter) {
        long sum = 0;
        for (ShardMetrics s : shards) {
            sum += counter.applyAsLong(s);
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

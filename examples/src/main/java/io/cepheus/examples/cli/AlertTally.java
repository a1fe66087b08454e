package io.cepheus.examples.cli;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Alerts counted per rule, from the shard threads that raise them, read by the runner's thread. */
final class AlertTally implements AlertCounts {

    private final Map<String, LongAdder> perRule = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();

    /** Counts one alert of {@code rule}; any thread. */
    void count(String rule) {
        perRule.computeIfAbsent(rule, r -> new LongAdder()).increment();
        total.increment();
    }

    @Override
    public long total() {
        return total.sum();
    }

    @Override
    public Map<String, Long> perRule() {
        Map<String, Long> out = new TreeMap<>();
        perRule.forEach((rule, n) -> out.put(rule, n.sum()));
        return out;
    }
}

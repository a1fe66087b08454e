package io.cepheus.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Collects what an engine emits, for tests and examples: pass {@link #add(Object, Object, long) sink::add} as a
 * handler and read the records back in arrival order. The method reference fits every handler of the shape
 * {@code (key, value, timestamp)}: matches ({@code select}), timeouts, late events, join results;
 * {@link #add(Object, long) sink::add} with two arguments fits side outputs.
 *
 * <pre>{@code
 * CollectingSink<Match<Login>> matches = new CollectingSink<>();
 * CollectingSink<Match<Login>> timeouts = new CollectingSink<>();
 * engine.keyBy(Login::user).pattern(p).select(matches::add).timeouts(timeouts::add);
 * ... harness.runUntilIdle();
 * assertEquals(List.of("u1"), matches.keys());
 * }</pre>
 *
 * <p>Thread-safe: shards add from their own threads; reads return copies. With several shards, records of
 * different keys may interleave in any order.
 *
 * @param <X> the type of the collected values
 */
public final class CollectingSink<X> {

    /**
     * One collected record.
     *
     * @param key       the key it was emitted for (null for side outputs)
     * @param value     the value
     * @param timestamp its record timestamp
     * @param <X>       the value type
     */
    public record Record<X>(Object key, X value, long timestamp) {
    }

    private final ConcurrentLinkedQueue<Record<X>> records = new ConcurrentLinkedQueue<>();

    /**
     * Collects a keyed record (the shape of match, timeout, late-event and result handlers).
     *
     * @param key       its key
     * @param value     its value
     * @param timestamp its record timestamp
     */
    public void add(Object key, X value, long timestamp) {
        records.add(new Record<>(key, value, timestamp));
    }

    /**
     * Collects a record without a key (the shape of side-output handlers).
     *
     * @param value     its value
     * @param timestamp its record timestamp
     */
    public void add(X value, long timestamp) {
        records.add(new Record<>(null, value, timestamp));
    }

    /** @return a copy of the records collected so far, in the order they arrived */
    public List<Record<X>> records() {
        return List.copyOf(records);
    }

    /** @return the values collected so far, in the order they arrived */
    public List<X> values() {
        List<X> out = new ArrayList<>();
        for (Record<X> r : records) {
            out.add(r.value());
        }
        return out;
    }

    /** @return the keys of the records collected so far, in the order they arrived (null entries allowed) */
    public List<Object> keys() {
        List<Object> out = new ArrayList<>();
        for (Record<X> r : records) {
            out.add(r.key());
        }
        return out;
    }

    /** @return how many records were collected */
    public int size() {
        return records.size();
    }

    /** Forgets everything collected so far. */
    public void clear() {
        records.clear();
    }
}

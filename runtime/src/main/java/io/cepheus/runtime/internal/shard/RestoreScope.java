package io.cepheus.runtime.internal.shard;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * Which part of a snapshot a shard restores. Restored into as many shards as it was written from, a shard reads its
 * own part as written ({@link #EXACT}): key ids, slots and counters as they were. Restored into another number of
 * shards (rescaling), every new shard reads every old shard's part and keeps only the keys the new engine routes to
 * it ({@link #keeps}); keys then take fresh ids, and the counters of the whole engine, which cannot be split by key,
 * are added up on one shard ({@link #countsHere}) so that the engine's totals go on from where they were.
 *
 * <p>Immutable.
 */
public final class RestoreScope {

    /** A shard reading its own part: everything as written. */
    public static final RestoreScope EXACT = new RestoreScope(true, key -> true, true);

    private final boolean exact;
    private final Predicate<Object> routesHere;
    private final boolean countsHere;

    private RestoreScope(boolean exact, Predicate<Object> routesHere, boolean countsHere) {
        this.exact = exact;
        this.routesHere = routesHere;
        this.countsHere = countsHere;
    }

    /**
     * @param routesHere whether the new engine routes a key to the shard being restored
     * @param countsHere whether this shard takes the snapshot's counters (one shard of the new engine does)
     * @return the scope of one new shard of a rescaling restore
     */
    public static RestoreScope rescaled(Predicate<Object> routesHere, boolean countsHere) {
        return new RestoreScope(false, Objects.requireNonNull(routesHere, "routesHere"), countsHere);
    }

    /** @return whether the shard reads its own part, as written */
    public boolean exact() {
        return exact;
    }

    /** @return whether the shard restores the state of {@code key} (always, when exact) */
    public boolean keeps(Object key) {
        return exact || routesHere.test(key);
    }

    /** @return whether the shard takes the snapshot's counters (always, when exact) */
    public boolean countsHere() {
        return countsHere;
    }

    /**
     * @param current what the shard has counted from the parts read so far
     * @param read    the count a part wrote
     * @return the count as restored: the written one when exact, else the sum on the shard that counts
     */
    public long counted(long current, long read) {
        return exact ? read : countsHere ? current + read : current;
    }
}

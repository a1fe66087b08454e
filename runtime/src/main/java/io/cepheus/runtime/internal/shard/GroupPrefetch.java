package io.cepheus.runtime.internal.shard;

/**
 * Loads memory ahead of the work that needs it, for loops that walk the state of many keys whose state does not
 * fit in the cache (a window firing for every key, a batch of elements for random keys).
 *
 * <p>Design ("group prefetching", Chen, Ailamaki, Gibbons and Mowry, <i>Improving hash join performance through
 * prefetching</i>, 2004): a key's state is a chain of objects (state object, then an array, then the values it
 * points to), so working on one key at a time pays one full memory latency per link, one after the other (on the
 * machines we measure, ~200 ns per link once the state is a few MB). Independent loads overlap instead: a loop
 * that loads the first link of {@link #GROUP} keys pays about one latency for all of them. So an owner takes its
 * keys in groups and runs one short stage per link over the whole group, each stage reading what the previous
 * one brought into the cache, before doing the real work on the group.
 *
 * <p>The stages must read only: they return what they load as a primitive ({@link #touch} and the owners'
 * {@code touch...} methods return ints, summed and kept in a field so the loads are not removed as dead code),
 * never store a reference. With G1, storing a reference into an object of another heap region runs a write
 * barrier that executes a full fence, which waits for every outstanding load: a stage that stored what it
 * loaded into a scratch array would take its misses one at a time again (measured: no gain at all).
 *
 * <p>Stateless.
 */
public final class GroupPrefetch {

    /**
     * Keys per group: enough loads in flight to cover the memory latency, few enough that a group's state stays
     * in the first-level cache until the work on it is done.
     */
    public static final int GROUP = 16;

    private GroupPrefetch() {
    }

    /**
     * Brings the start of {@code o} into the cache (it reads the object's class word).
     *
     * @param o an object, or null
     * @return 0 unless {@code o} is a bare {@code Object}: a value for the caller to sum, so the load stays
     */
    public static int touch(Object o) {
        return o != null && o.getClass() == Object.class ? 1 : 0;
    }
}

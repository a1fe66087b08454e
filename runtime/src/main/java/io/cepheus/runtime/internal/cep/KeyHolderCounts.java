package io.cepheus.runtime.internal.cep;

import java.util.Arrays;

/**
 * How many versions of a rule set hold matching state for each key id of the shard. With it the rule set knows
 * without asking its versions one by one whether a key is still held (to free its id) and which events fall on a key
 * no version holds (no version then needs to look the key up): with a thousand rules, asking each of them cost more
 * per event than matching.
 *
 * <p>Owned by the shard's worker thread, like the rule set's buffer that holds it.
 */
final class KeyHolderCounts {

    private int[] counts = new int[64];

    /** A version made a state for the key. */
    void held(int keyId) {
        if (keyId >= counts.length) {
            counts = Arrays.copyOf(counts, Math.max(keyId + 1, counts.length * 2));
        }
        counts[keyId]++;
    }

    /** A version dropped its state of the key. */
    void released(int keyId) {
        counts[keyId]--;
    }

    /** @return how many versions hold state for the key */
    int of(int keyId) {
        return keyId < counts.length ? counts[keyId] : 0;
    }
}

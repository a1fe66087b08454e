package io.cepheus.runtime.internal.cep;

import java.util.Arrays;

/**
 * Which row of a pattern operator's per-key arrays (NFA state, round stamp, due times) holds a key.
 *
 * <p>A pattern registered on the stream uses the shard's key id as the row ({@link #keyIds()}): no lookup on the
 * hot path, arrays as long as the shard's key ids, which the stream's keys need anyway. A rule version uses rows of
 * its own ({@link #heldIn}): a row is given to a key when the version starts holding state for it and taken back
 * when it frees the key, so the version's arrays follow what it holds, not the shard's key count. A rule set of a
 * thousand rules over a million keys would otherwise keep a thousand arrays of a million rows (about 28 bytes per key
 * id and rule) however few keys each rule is matching. The row is kept in the rule set's record of which versions
 * hold each key ({@link KeyHolders}), which the rule set walks for every event anyway: finding a version's row is a
 * step along that short list, and a version keeps no hash table of its keys.
 *
 * <p>Owned by the shard's worker thread, like the operator that uses it.
 */
final class KeyRows {

    /** Null when the row is the key id. */
    private final KeyHolders holders;
    private int holder = -1;
    private int[] keyOfRow;
    private int[] freeRows;
    private int freeCount;
    private int usedRows;

    private KeyRows(KeyHolders holders) {
        this.holders = holders;
        this.keyOfRow = holders != null ? new int[4] : null;
        this.freeRows = holders != null ? new int[4] : null;
    }

    /** @return rows that are the shard's key ids */
    static KeyRows keyIds() {
        return new KeyRows(null);
    }

    /**
     * @param holders the rule set's record of the versions holding each key, which keeps the rows
     * @return rows given out to the keys held and taken back when they are freed
     */
    static KeyRows heldIn(KeyHolders holders) {
        return new KeyRows(java.util.Objects.requireNonNull(holders, "holders"));
    }

    /** Sets the version these rows are of: its handle in the rule set (when it joins, before it holds a key). */
    void holder(int handle) {
        this.holder = handle;
    }

    /** @return whether the row of a key is its id */
    boolean areKeyIds() {
        return holders == null;
    }

    /** @return the key's row, or -1 if it has none (never -1 when rows are key ids) */
    int rowOf(int keyId) {
        return holders == null ? keyId : holders.rowOf(keyId, holder);
    }

    /** @return the key id whose row {@code row} is */
    int keyOf(int row) {
        return holders == null ? row : keyOfRow[row];
    }

    /** @return a row for a key that has none ({@link #rowOf} gave -1), or its id; the version now holds the key */
    int add(int keyId) {
        if (holders == null) {
            return keyId;
        }
        int row;
        if (freeCount > 0) {
            row = freeRows[--freeCount];
        } else {
            row = usedRows++;
            if (row == keyOfRow.length) {
                keyOfRow = Arrays.copyOf(keyOfRow, row * 2);
            }
        }
        keyOfRow[row] = keyId;
        holders.held(keyId, holder, row);
        return row;
    }

    /** Takes the row of a freed key back, for the next key added; the version no longer holds the key. */
    void remove(int keyId, int row) {
        if (holders == null) {
            return;
        }
        holders.released(keyId, holder);
        if (freeCount == freeRows.length) {
            freeRows = Arrays.copyOf(freeRows, freeCount * 2);
        }
        freeRows[freeCount++] = row;
    }
}

package io.cepheus.runtime.internal.cep;

import com.carrotsearch.hppc.IntIntHashMap;
import java.util.Arrays;

/**
 * Which row of a pattern operator's per-key arrays (NFA state, round stamp, due times) holds a key.
 *
 * <p>A pattern registered on the stream uses the shard's key id as the row ({@link #keyIds()}): no lookup on the
 * hot path, arrays as long as the shard's key ids, which the stream's keys need anyway. A rule version uses rows of
 * its own ({@link #compact()}): a row is given to a key when the version starts holding state for it and taken back
 * when it frees the key, so the version's arrays follow what it holds, not the shard's key count. A rule set of a
 * thousand rules over a million keys would otherwise keep a thousand arrays of a million rows (about 28 bytes per key
 * id and rule) however few keys each rule is matching; compact rows cost one hash lookup per event and rule instead.
 *
 * <p>Owned by the shard's worker thread, like the operator that uses it.
 */
final class KeyRows {

    /** Null when the row is the key id. */
    private final IntIntHashMap rowOfKey;
    private int[] keyOfRow;
    private int[] freeRows;
    private int freeCount;
    private int usedRows;

    private KeyRows(boolean compact) {
        this.rowOfKey = compact ? new IntIntHashMap() : null;
        this.keyOfRow = compact ? new int[4] : null;
        this.freeRows = compact ? new int[4] : null;
    }

    /** @return rows that are the shard's key ids */
    static KeyRows keyIds() {
        return new KeyRows(false);
    }

    /** @return rows given out to the keys held and taken back when they are freed */
    static KeyRows compact() {
        return new KeyRows(true);
    }

    /** @return whether the row of a key is its id */
    boolean areKeyIds() {
        return rowOfKey == null;
    }

    /** @return the key's row, or -1 if it has none (never -1 when rows are key ids) */
    int rowOf(int keyId) {
        if (rowOfKey == null) {
            return keyId;
        }
        int slot = rowOfKey.indexOf(keyId);
        return slot >= 0 ? rowOfKey.indexGet(slot) : -1;
    }

    /** @return the key id whose row {@code row} is */
    int keyOf(int row) {
        return rowOfKey == null ? row : keyOfRow[row];
    }

    /** @return a row for a key that has none ({@link #rowOf} gave -1), or its id */
    int add(int keyId) {
        if (rowOfKey == null) {
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
        rowOfKey.put(keyId, row);
        return row;
    }

    /** Takes the row of a freed key back, for the next key added. */
    void remove(int keyId, int row) {
        if (rowOfKey == null) {
            return;
        }
        rowOfKey.remove(keyId);
        if (freeCount == freeRows.length) {
            freeRows = Arrays.copyOf(freeRows, freeCount * 2);
        }
        freeRows[freeCount++] = row;
    }
}

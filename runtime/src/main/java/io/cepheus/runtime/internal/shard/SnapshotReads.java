package io.cepheus.runtime.internal.shard;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * Reads of snapshot fields that size what a restore allocates or loops over. A snapshot's checksum proves its
 * bytes are the ones written, not that they were written by this engine, so a count is checked against what the
 * bytes can hold: every counted item takes at least one byte, and a shard's part is read from memory, whose
 * remaining length is known. A count beyond it is refused before anything is allocated, instead of an
 * {@link OutOfMemoryError} or a loop over billions of items.
 *
 * <p>Stateless.
 */
public final class SnapshotReads {

    private SnapshotReads() {
    }

    /**
     * @param in   the snapshot
     * @param what what is counted, as a format with one {@code %d} for the count (e.g. "a pattern with %d keys")
     * @return a count of items, each at least one byte, that the rest of {@code in} can hold
     * @throws IOException if it is negative or larger than the bytes left
     */
    public static int count(DataInput in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException(String.format(what, n));
        }
        if (in instanceof DataInputStream stream && n > stream.available()) {
            throw new IOException(String.format(what, n) + ", more than the " + stream.available()
                    + " bytes left could hold");
        }
        return n;
    }
}

package io.cepheus.runtime;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.internal.shard.CepShard;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.shard.RestoreScope;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The engine snapshot format, shared by live snapshots and the test harness.
 *
 * <p>The layout: a 16-byte header (magic, format version, length of the body, CRC32C of the body), then the
 * body: shard count, operator count, each operator's description, and one length-prefixed part per shard, as
 * the shard writes it (its watermarks, its key dictionary, then each operator's state). Every key's state is written
 * with the key itself, not its id, so a snapshot restores into any number of shards ({@link RestoreScope}).
 *
 * <p>One checksum over the whole body, verified before anything in it is parsed or any shard is touched: a
 * corrupt file is refused whole (a checksum per shard part would restore the shards before the bad one and
 * leave the engine half restored), and no reader of operator state ever sees corrupt bytes, where a flipped
 * bit could otherwise pass as a plausible count or timestamp. CRC32C detects every error of up to 3 flipped bits
 * in bodies up to 256 MiB and every burst of up to 32 bits; any other error but one in 2^32. Magic and version
 * stay outside it so that a file of another version is named as such rather than as corrupt.
 */
final class SnapshotFormat {

    private static final int MAGIC = 0x43455053; // "CEPS"
    /**
     * 2: header with body length and CRC32C; patterns described with their structure fingerprint. 3: each shard
     * part holds its key dictionary (keys with their ids, free ids in reuse order). 4: the slice window operator
     * writes its queue (bounds and front slices) once, then each key's slices by slice number. 5: a pattern
     * operator's counters include its rejected partial matches. 6: each shard part holds its events per producer;
     * rule sets write their buffer with arrival numbers and each rule version's state. Any other version is refused by
     * name.
     */
    private static final int VERSION = 6;
    private static final int HEADER_BYTES = 16;
    /** Why a body whose checksum matched still does not read: not damage, which the checksum rules out. */
    private static final String INTACT_BUT_UNREADABLE = "the snapshot is intact (its checksum matches), so it does"
            + " not fit this engine: its event or key codec reads other bytes than the codec that wrote it (a codec"
            + " mismatch), or its operators keep other state than the ones that wrote it";
    /** Bodies are read in growing chunks, so a corrupt length in a short stream cannot allocate gigabytes. */
    private static final int FIRST_CHUNK = 64 * 1024;

    private SnapshotFormat() {
    }

    static <T> byte[] assemble(CepEngine<T> engine, byte[][] parts) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(0); // body length and checksum: filled in once the body is written
            out.writeInt(0);
            writeShape(engine, out);
            for (byte[] part : parts) {
                out.writeInt(part.length);
                out.write(part);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        byte[] snapshot = bytes.toByteArray();
        int bodyLength = snapshot.length - HEADER_BYTES;
        ByteBuffer.wrap(snapshot).putInt(8, bodyLength).putInt(12, crc(snapshot, HEADER_BYTES, bodyLength));
        return snapshot;
    }

    private static <T> void writeShape(CepEngine<T> engine, DataOutput out) throws IOException {
        out.writeInt(engine.shardCount());
        out.writeInt(engine.operatorList().size());
        for (CepEngine.OperatorRegistration<T> op : engine.operatorList()) {
            out.writeUTF(op.description());
        }
    }

    /**
     * Checks a whole snapshot (header, checksum, no bytes after it) and its shape against {@code engine}, then
     * restores every shard (operators already built).
     */
    static <T> void restore(CepEngine<T> engine, byte[] snapshot, EventCodec<T> events, EventCodec<Object> keys)
            throws IOException {
        restoreBody(engine, readBody(new DataInputStream(new ByteArrayInputStream(snapshot)), snapshot.length),
                events, keys);
    }

    /**
     * As {@link #restore(CepEngine, byte[], EventCodec, EventCodec)}, reading exactly one snapshot from
     * {@code in}: what follows it is not this snapshot's to judge.
     */
    static <T> void restore(CepEngine<T> engine, DataInput in, EventCodec<T> events, EventCodec<Object> keys)
            throws IOException {
        restoreBody(engine, readBody(in, -1), events, keys);
    }

    /**
     * @param size the bytes {@code in} holds, all of which must be the snapshot, or -1 if unknown
     * @return the body, its checksum verified
     */
    private static byte[] readBody(DataInput in, long size) throws IOException {
        int length;
        int checksum;
        try {
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw new IOException("not a Cepheus engine snapshot (it starts with 0x" + Integer.toHexString(magic)
                        + ", not 0x" + Integer.toHexString(MAGIC) + ")");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException("engine snapshot format version " + version + " is not supported (this"
                        + " version reads " + VERSION + ")");
            }
            length = in.readInt();
            checksum = in.readInt();
        } catch (EOFException e) {
            throw new IOException("truncated snapshot: it ends within its " + HEADER_BYTES + "-byte header", e);
        }
        if (length < 0) {
            throw new IOException("corrupt snapshot: the header announces a body of " + length + " bytes");
        }
        if (size >= 0 && length > size - HEADER_BYTES) {
            throw new IOException("truncated snapshot: the header announces " + length + " bytes after it, there"
                    + " are " + (size - HEADER_BYTES));
        }
        if (size >= 0 && length < size - HEADER_BYTES) {
            throw new IOException("corrupt snapshot: " + (size - HEADER_BYTES - length) + " trailing bytes after the "
                    + length + " the header announces");
        }
        byte[] body = new byte[Math.min(length, FIRST_CHUNK)];
        int read = 0;
        try {
            while (true) {
                in.readFully(body, read, body.length - read);
                read = body.length;
                if (read == length) {
                    break;
                }
                body = Arrays.copyOf(body, (int) Math.min(length, 2L * read));
            }
        } catch (EOFException e) {
            throw new IOException("truncated snapshot: the header announces " + length + " bytes after it, the"
                    + " input ends before " + body.length, e);
        }
        int actual = crc(body, 0, length);
        if (actual != checksum) {
            throw new IOException("corrupt snapshot: checksum mismatch (CRC32C of the " + length + " bytes after"
                    + " the header is " + Integer.toHexString(actual) + ", the header says "
                    + Integer.toHexString(checksum) + ")");
        }
        return body;
    }

    private static int crc(byte[] bytes, int from, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, from, length);
        return (int) crc.getValue();
    }

    /**
     * Restores a verified body. What fails here was written by an engine of another shape, operators that write
     * other state, or a bug: not corruption, which the checksum has ruled out.
     */
    private static <T> void restoreBody(CepEngine<T> engine, byte[] body, EventCodec<T> events,
            EventCodec<Object> keys) throws IOException {
        ByteArrayInputStream bytes = new ByteArrayInputStream(body);
        DataInputStream in = new DataInputStream(bytes);
        int written;
        try {
            written = checkShape(engine, in);
        } catch (EOFException e) {
            throw new IOException("the snapshot ends within the engine's shape (shards, operators)", e);
        }
        List<CepShard<T>> list = engine.shards();
        if (written != list.size()) {
            restoreRescaled(engine, body, bytes, in, written, events, keys);
            return;
        }
        for (int s = 0; s < list.size(); s++) {
            if (bytes.available() < Integer.BYTES) {
                throw new IOException("the snapshot ends before shard " + s + "'s part");
            }
            int length = in.readInt();
            if (length < 0 || length > bytes.available()) {
                throw new IOException("shard " + s + "'s part announces " + length + " bytes, " + bytes.available()
                        + " remain in the snapshot");
            }
            ByteArrayInputStream part = new ByteArrayInputStream(body, body.length - bytes.available(), length);
            in.skipNBytes(length);
            try {
                list.get(s).readState(new DataInputStream(part), events, keys);
            } catch (IOException | RuntimeException e) {
                // codecs may wrap the end of input in an unchecked exception: an exhausted part tells it apart
                if (e instanceof EOFException || part.available() == 0) {
                    throw new IOException("shard " + s + "'s part (" + length + " bytes) ends before its state"
                            + " does: " + INTACT_BUT_UNREADABLE, e);
                }
                throw new IOException("shard " + s + "'s part cannot be read: " + INTACT_BUT_UNREADABLE
                        + " (reading it failed with: " + e.getMessage() + ")", e);
            }
            if (part.available() > 0) {
                throw new IOException("shard " + s + "'s part has " + part.available() + " of its " + length
                        + " bytes left after its state was read: " + INTACT_BUT_UNREADABLE);
            }
            checkRouting(list.get(s), s, list.size());
        }
        if (bytes.available() > 0) {
            throw new IOException("the snapshot has " + bytes.available() + " bytes after the last shard's part");
        }
    }

    /**
     * Restores a snapshot of {@code written} shards into the engine's other number of shards: every new shard reads
     * every old part and keeps the keys the engine routes to it (see {@link RestoreScope}); the snapshot's counters go
     * to shard 0, so the engine's totals go on from where they were.
     */
    private static <T> void restoreRescaled(CepEngine<T> engine, byte[] body, ByteArrayInputStream bytes,
            DataInputStream in, int written, EventCodec<T> events, EventCodec<Object> keys) throws IOException {
        List<CepShard<T>> list = engine.shards();
        if ((long) written * Integer.BYTES > bytes.available()) {
            // each part starts with its length: refuse a count the bytes cannot hold before sizing anything by it
            throw new IOException("the snapshot announces " + written + " shards, more than its " + bytes.available()
                    + " remaining bytes could hold");
        }
        int[] offset = new int[written];
        int[] length = new int[written];
        for (int s = 0; s < written; s++) {
            if (bytes.available() < Integer.BYTES) {
                throw new IOException("the snapshot ends before shard " + s + "'s part");
            }
            length[s] = in.readInt();
            if (length[s] < 0 || length[s] > bytes.available()) {
                throw new IOException("shard " + s + "'s part announces " + length[s] + " bytes, "
                        + bytes.available() + " remain in the snapshot");
            }
            offset[s] = body.length - bytes.available();
            in.skipNBytes(length[s]);
        }
        if (bytes.available() > 0) {
            throw new IOException("the snapshot has " + bytes.available() + " bytes after the last shard's part");
        }
        for (int s = 0; s < list.size(); s++) {
            int shard = s;
            RestoreScope scope = RestoreScope.rescaled(key -> CepEngine.shardOf(key, list.size()) == shard, s == 0);
            DataInput[] parts = new DataInput[written];
            for (int p = 0; p < written; p++) {
                parts[p] = new DataInputStream(new ByteArrayInputStream(body, offset[p], length[p]));
            }
            try {
                list.get(s).readRescaled(parts, events, keys, scope);
            } catch (IOException | RuntimeException e) {
                throw new IOException("the snapshot of " + written + " shards cannot be restored into shard " + s
                        + " of " + list.size() + ": " + e.getMessage(), e);
            }
            checkRouting(list.get(s), s, list.size());
        }
    }

    /** @return the number of shards the snapshot was written from */
    private static <T> int checkShape(CepEngine<T> engine, DataInput in) throws IOException {
        int shards = in.readInt();
        if (shards < 1) {
            throw new IOException("the snapshot has " + shards + " shards");
        }
        int operators = in.readInt();
        if (operators != engine.operatorList().size()) {
            throw new IOException("the snapshot has " + operators + " operators (patterns, windows, joins), this"
                    + " engine " + engine.operatorList().size());
        }
        for (int id = 0; id < operators; id++) {
            String description = in.readUTF();
            if (!description.equals(engine.operatorList().get(id).description())) {
                throw new IOException("operator " + id + " differs: the snapshot has " + description
                        + ", this engine " + engine.operatorList().get(id).description());
            }
        }
        return shards;
    }

    /**
     * Every restored key must be on the shard the engine routes it to, or its later events would go to another
     * shard, which knows nothing of its state. Keys route by {@code hashCode}, so a key type whose hash differs
     * between JVMs (an enum, an identity hash) breaks this silently; here it is caught. Once per key, at
     * restore: the routing of events is unchanged.
     */
    private static <T> void checkRouting(CepShard<T> shard, int index, int shards) throws IOException {
        KeyDictionary keys = shard.keys();
        for (int id = 0; id < keys.idBound(); id++) {
            Object key = keys.keyAt(id);
            if (key != null && CepEngine.shardOf(key, shards) != index) {
                throw new IOException("key " + key + " (" + key.getClass().getName() + ") was restored into shard "
                        + index + ", but this engine routes it to shard " + CepEngine.shardOf(key, shards)
                        + ": its hashCode is not the one it had in the JVM that wrote the snapshot. Keys of an"
                        + " engine with snapshots need a hashCode that is stable across JVMs (String, boxed"
                        + " primitives, records of those); enums and identity hash codes, also inside records,"
                        + " are not");
            }
        }
    }
}

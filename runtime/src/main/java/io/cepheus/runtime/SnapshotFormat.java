package io.cepheus.runtime;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.internal.shard.CepShard;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * The engine snapshot format: a header (magic, format version, shard count, each pattern's stages) and one
 * length-prefixed part per shard, as the shard writes it. Shared by live snapshots and the test harness.
 */
final class SnapshotFormat {

    private static final int MAGIC = 0x43455053; // "CEPS"
    private static final int VERSION = 1;

    private SnapshotFormat() {
    }

    static <T> byte[] assemble(CepEngine<T> engine, byte[][] parts) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeHeader(engine, out);
            for (byte[] part : parts) {
                out.writeInt(part.length);
                out.write(part);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static <T> void writeHeader(CepEngine<T> engine, DataOutput out) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(engine.shardCount());
        out.writeInt(engine.operatorList().size());
        for (CepEngine.OperatorRegistration<T> op : engine.operatorList()) {
            out.writeUTF(op.description());
        }
    }

    /** Checks the header against {@code engine}, then restores every shard (operators already built). */
    static <T> void restore(CepEngine<T> engine, DataInput in, EventCodec<T> events, EventCodec<Object> keys)
            throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("not a Cepheus engine snapshot");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException("engine snapshot format version " + version + " is not supported (this version"
                    + " reads " + VERSION + ")");
        }
        int shards = in.readInt();
        if (shards != engine.shardCount()) {
            throw new IOException("the snapshot has " + shards + " shards, this engine " + engine.shardCount()
                    + ": keys would land on other shards");
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
        List<CepShard<T>> list = engine.shardList();
        for (CepShard<T> shard : list) {
            int length = in.readInt();
            if (length < 0) {
                throw new IOException("corrupt snapshot: shard part of " + length + " bytes");
            }
            byte[] part = new byte[length];
            in.readFully(part);
            shard.readState(new DataInputStream(new ByteArrayInputStream(part)), events, keys);
        }
    }
}

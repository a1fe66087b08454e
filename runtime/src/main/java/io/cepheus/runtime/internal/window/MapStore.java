package io.cepheus.runtime.internal.window;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.window.KeyedStateStore;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/** A small named-value store (per window or per key) for process functions; owned by the shard thread. */
final class MapStore implements KeyedStateStore {
    private final HashMap<String, Object> values = new HashMap<>(4);
    /** Why values may not be stored (an engine with snapshots and no codec for them), or null. */
    private final String refusal;

    /** @param refusal why storing a value fails, or null if it may */
    MapStore(String refusal) {
        this.refusal = refusal;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <X> X get(String name) {
        return (X) values.get(name);
    }

    @Override
    public void put(String name, Object value) {
        if (value == null) {
            values.remove(name);
        } else {
            if (refusal != null) {
                throw new IllegalStateException("storing '" + name + "': " + refusal);
            }
            values.put(name, value);
        }
    }

    boolean isEmpty() {
        return values.isEmpty();
    }

    /** Writes the values (for snapshots). @param codec writes each value */
    void writeTo(DataOutput out, EventCodec<Object> codec) throws IOException {
        out.writeInt(values.size());
        for (Map.Entry<String, Object> e : values.entrySet()) {
            out.writeUTF(e.getKey());
            codec.write(e.getValue(), out);
        }
    }

    /** Reads what {@link #writeTo} wrote into this empty store. */
    void readFrom(DataInput in, EventCodec<Object> codec) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("a window state store with " + n + " values");
        }
        for (int i = 0; i < n; i++) {
            values.put(in.readUTF(), codec.read(in));
        }
    }
}

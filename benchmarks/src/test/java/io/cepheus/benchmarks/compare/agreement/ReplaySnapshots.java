package io.cepheus.benchmarks.compare.agreement;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What the Cepheus replays share to cut a run with a snapshot: taking it between batches, restoring a fresh engine
 * from it, and the codec of int keys. Stateless.
 */
final class ReplaySnapshots {

    /** Writes and reads int keys (boxed as {@link Integer}). */
    static final EventCodec<Object> INT_KEYS = new EventCodec<>() {
        @Override
        public void write(Object key, DataOutput out) throws IOException {
            out.writeInt((Integer) key);
        }

        @Override
        public Object read(DataInput in) throws IOException {
            return in.readInt();
        }
    };

    private ReplaySnapshots() {
    }

    /** @return a snapshot of the harness's engine */
    static <T> byte[] snapshot(CepTestHarness<T> harness, EventCodec<T> events, EventCodec<Object> keys) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            harness.snapshot(out, events, keys);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** @return a harness on {@code engine}, restored from {@code snapshot} */
    static <T> CepTestHarness<T> restore(CepEngine<T> engine, byte[] snapshot, EventCodec<T> events,
            EventCodec<Object> keys) {
        try {
            return CepTestHarness.restore(engine, new DataInputStream(new ByteArrayInputStream(snapshot)), events,
                    keys);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.cepheus.kafka.internal;

import java.nio.ByteBuffer;
import org.apache.kafka.common.utils.Bytes;

/**
 * How the processor's state store is laid out: one store, three kinds of entries told apart by their key's first
 * byte, so that one changelog topic carries them all and a prefix scan reads each kind.
 * <ul>
 *   <li>{@code H}: the header (the watermark, the next arrival number, the patterns' names and counters);</li>
 *   <li>{@code K} + the key's serialized bytes: that key's matching state in every pattern;</li>
 *   <li>{@code E} + an arrival number (8 bytes, big-endian, so that entries scan in arrival order): an event the
 *       event-time patterns hold until the watermark passes it, with its key and timestamp.</li>
 * </ul>
 */
final class StateKeys {

    static final byte HEADER = 'H';
    static final byte KEY = 'K';
    static final byte EVENT = 'E';
    static final Bytes HEADER_KEY = Bytes.wrap(new byte[] {HEADER});
    static final Bytes KEY_PREFIX = Bytes.wrap(new byte[] {KEY});
    static final Bytes EVENT_PREFIX = Bytes.wrap(new byte[] {EVENT});

    private StateKeys() {
    }

    /** @return the entry of the key whose serialized form is {@code keyBytes} */
    static Bytes key(byte[] keyBytes) {
        byte[] b = new byte[keyBytes.length + 1];
        b[0] = KEY;
        System.arraycopy(keyBytes, 0, b, 1, keyBytes.length);
        return Bytes.wrap(b);
    }

    /** @return the serialized key of a key entry */
    static byte[] keyBytes(Bytes entry) {
        byte[] b = entry.get();
        byte[] key = new byte[b.length - 1];
        System.arraycopy(b, 1, key, 0, key.length);
        return key;
    }

    /** @return the entry of the event buffered under {@code arrival} */
    static Bytes event(long arrival) {
        return Bytes.wrap(ByteBuffer.allocate(9).put(EVENT).putLong(arrival).array());
    }

    /** @return the arrival number of an event entry */
    static long arrival(Bytes entry) {
        return ByteBuffer.wrap(entry.get(), 1, 8).getLong();
    }
}

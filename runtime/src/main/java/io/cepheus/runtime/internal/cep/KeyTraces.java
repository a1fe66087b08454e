package io.cepheus.runtime.internal.cep;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The traced keys of one CEP operator and their traces. The operator holds one only while some key is traced, so that
 * its untraced work tests one field; an event on a key without state then scans the traced keys while they are few,
 * which costs every other event less than a hash lookup would, and looks the key up once they are more.
 *
 * <p>Owned by the operator's shard thread.
 */
final class KeyTraces {

    private final Map<Object, KeyTraceLog> byKey = new LinkedHashMap<>();
    private Object[] keys = new Object[0];

    /** Traces a key afresh into {@code log}. */
    void start(Object key, KeyTraceLog log) {
        byKey.put(key, log);
        keys = byKey.keySet().toArray();
    }

    /** @return the key's trace, which is no longer kept; null if the key was not traced */
    KeyTraceLog stop(Object key) {
        KeyTraceLog log = byKey.remove(key);
        keys = byKey.keySet().toArray();
        return log;
    }

    /** @return the key's trace, null if it is not traced */
    KeyTraceLog get(Object key) {
        return byKey.get(key);
    }

    /** Traced keys up to which a scan is cheaper than a hash lookup. */
    private static final int SCANNED = 8;

    /** @return the key's trace if it is traced, null if not: by a scan of the traced keys while they are few */
    KeyTraceLog scan(Object key) {
        if (keys.length > SCANNED) {
            return byKey.get(key);
        }
        for (Object traced : keys) {
            if (traced.equals(key)) {
                return byKey.get(key);
            }
        }
        return null;
    }

    /** @return whether no key is traced */
    boolean isEmpty() {
        return byKey.isEmpty();
    }

    /** @return every trace, for the watermark's moves */
    Iterable<KeyTraceLog> all() {
        return byKey.values();
    }
}

package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.KeyedStateStore;
import java.util.HashMap;

/** A small named-value store (per window or per key) for process functions; owned by the shard thread. */
final class MapStore implements KeyedStateStore {
    private final HashMap<String, Object> values = new HashMap<>(4);

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
            values.put(name, value);
        }
    }

    boolean isEmpty() {
        return values.isEmpty();
    }
}

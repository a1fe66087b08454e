package io.cepheus.runtime.window;

/**
 * Named values kept for a window (cleared with it) or for a key across its windows (kept until removed: a key with
 * global state is not forgotten by its shard). Single-threaded, like the function using it.
 */
public interface KeyedStateStore {

    /**
     * @param name the value's name
     * @param <V>  its type
     * @return the value stored under {@code name}, or null
     */
    <V> V get(String name);

    /**
     * Stores {@code value} under {@code name} (null removes it).
     *
     * @param name  the value's name
     * @param value the value
     */
    void put(String name, Object value);

    /**
     * Removes the value stored under {@code name}.
     *
     * @param name the value's name
     */
    default void remove(String name) {
        put(name, null);
    }
}

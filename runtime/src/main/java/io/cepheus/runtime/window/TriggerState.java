package io.cepheus.runtime.window;

import java.util.Objects;
import java.util.function.BinaryOperator;

/**
 * Names one piece of per-window trigger state and says how two windows' values combine when windows merge.
 * Create it once (a field of the trigger); state is looked up by this object's identity.
 *
 * @param name  for messages
 * @param merge combines the values of merged windows; null if the state cannot merge
 * @param <V>   the value type
 */
public record TriggerState<V>(String name, BinaryOperator<V> merge) {

    /** Validates the name. */
    public TriggerState {
        Objects.requireNonNull(name, "name");
    }

    /** @param name for messages @param merge combines merged windows' values @param <V> value type @return it */
    public static <V> TriggerState<V> of(String name, BinaryOperator<V> merge) {
        return new TriggerState<>(name, merge);
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}

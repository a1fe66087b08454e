package io.cepheus.runtime.window;

import io.cepheus.nfa.EventCodec;
import java.util.Objects;
import java.util.function.BinaryOperator;

/**
 * Names one piece of per-window trigger state and says how two windows' values combine when windows merge.
 * Create it once (a field of the trigger); state is looked up by this object's identity.
 *
 * <p>For snapshots ({@code CepEngine.Builder#snapshots}) a state needs a codec for its values and a name that no
 * other state of its trigger has, and the trigger lists it in {@link Trigger#states()}: a restored engine's
 * trigger is another object with other states, so a window's values are written under the name and read back
 * into the state of that name.
 *
 * @param name  names the state in messages and in snapshots
 * @param merge combines the values of merged windows; null if the state cannot merge
 * @param codec writes and reads the values in snapshots; null if the state takes no part in them
 * @param <V>   the value type
 */
public record TriggerState<V>(String name, BinaryOperator<V> merge, EventCodec<V> codec) {

    /**
     * Validates the name.
     *
     * @param name  names the state in messages and in snapshots
     * @param merge combines the values of merged windows; null if the state cannot merge
     * @param codec writes and reads the values in snapshots; null if the state takes no part in them
     */
    public TriggerState {
        Objects.requireNonNull(name, "name");
    }

    /**
     * A state without a codec.
     *
     * @param name its name
     * @param merge combines merged windows' values
     */
    public TriggerState(String name, BinaryOperator<V> merge) {
        this(name, merge, null);
    }

    /**
     * @param name for messages
     * @param merge combines merged windows' values
     * @param <V> value type
     * @return it
     */
    public static <V> TriggerState<V> of(String name, BinaryOperator<V> merge) {
        return new TriggerState<>(name, merge, null);
    }

    /**
     * A state that takes part in snapshots (list it in the trigger's {@link Trigger#states()}).
     *
     * @param name  unique among the trigger's states
     * @param merge combines merged windows' values, or null
     * @param codec writes and reads its values
     * @param <V>   value type
     * @return the state
     */
    public static <V> TriggerState<V> of(String name, BinaryOperator<V> merge, EventCodec<V> codec) {
        return new TriggerState<>(name, merge, Objects.requireNonNull(codec, "codec"));
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

package io.cepheus.kafka.internal;

import io.cepheus.nfa.NfaOptions;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.Rule;
import io.cepheus.runtime.rules.RetirePolicy;
import java.util.Comparator;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

/**
 * The rules of a processor, as the builder collected them: where they come from and how they become patterns.
 *
 * @param topic               the compacted topic of rules: key the rule id, value its JSON, a tombstone removes it
 * @param compiler            makes a rule's pattern for the input's values
 * @param policy              how a replaced or removed version ends
 * @param options             the NFA options of every version
 * @param tieBreaker          orders events of equal timestamp before arrival order; null for none
 * @param checkIntervalMillis how often each task looks for changes in the rules' global store (wall clock)
 * @param store               makes the global store the rules topic is kept in
 * @param <V>                 the value type
 */
public record RulesSpec<V>(String topic, Function<Rule, Pattern<V>> compiler, RetirePolicy policy,
        NfaOptions options, Comparator<? super V> tieBreaker, long checkIntervalMillis,
        KeyValueBytesStoreSupplier store) {
    /**
     * @param topic               the compacted topic of rules
     * @param compiler            makes a rule's pattern
     * @param policy              how a replaced or removed version ends
     * @param options             the NFA options of every version
     * @param tieBreaker          orders events of equal timestamp; null for none
     * @param checkIntervalMillis how often each task looks for changes
     * @param store               makes the global store
     */
    public RulesSpec {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(compiler, "compiler");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(store, "store");
    }

    /** @return the global store's name */
    public String storeName() {
        return store.name();
    }
}

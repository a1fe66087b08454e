package io.cepheus.kafka.internal;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.rules.Rule;
import io.cepheus.rules.Rules;
import io.cepheus.runtime.internal.cep.RuleSetOperator;
import io.cepheus.runtime.rules.RuleVersion;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Brings one task's rule set in line with the rules' global store (the compacted rules topic, as the global thread
 * keeps it): a rule id not in force is put in force, a higher version replaces the one in force, an id gone from
 * the topic is removed; a replaced or removed version ends as the policy says ({@code DRAIN}: it completes the
 * partial matches it holds; {@code DISCARD}: it drops them). Each change takes effect at the point of the task's
 * input where {@link #sync} runs: between two records, so every event the task received before it is matched by the
 * versions in force before, every later one by those in force after. A record it cannot use (JSON that does not
 * parse or compile, an id other than its key, a version not above the one in force, a changed definition under the
 * version in force) is reported once and changes nothing.
 *
 * <p>It keeps the JSON of every version present (a draining version's too, whose record the topic no longer holds):
 * the task's header carries them, so that a restore compiles each version again.
 *
 * <p>Owned by the stream thread running the task.
 *
 * @param <V> the value type
 */
final class RuleSync<V> {

    private final RulesSpec<V> spec;
    private final ReadOnlyKeyValueStore<String, String> topic;
    private final RuleSetOperator<V> ruleSet;
    private final BiConsumer<String, String> rejected;
    /** The JSON of every version present. */
    private final Map<RuleVersion, String> definitions = new HashMap<>();
    /** By rule id, the JSON last refused: it is reported once. */
    private final Map<String, String> refused = new HashMap<>();

    RuleSync(RulesSpec<V> spec, ReadOnlyKeyValueStore<String, String> topic, RuleSetOperator<V> ruleSet,
            BiConsumer<String, String> rejected) {
        this.spec = spec;
        this.topic = topic;
        this.ruleSet = ruleSet;
        this.rejected = rejected;
    }

    /**
     * Applies what changed in the rules topic since the last call, rule ids in order.
     *
     * @return whether the rule set changed
     */
    boolean sync() {
        Map<String, String> current = new TreeMap<>();
        try (KeyValueIterator<String, String> it = topic.all()) {
            while (it.hasNext()) {
                KeyValue<String, String> e = it.next();
                if (e.key != null && e.value != null) {
                    current.put(e.key, e.value);
                }
            }
        }
        Map<String, RuleVersion> inForce = new HashMap<>();
        for (RuleVersion v : ruleSet.inForce()) {
            inForce.put(v.id(), v);
        }
        boolean changed = false;
        for (Map.Entry<String, String> e : current.entrySet()) {
            String id = e.getKey();
            String json = e.getValue();
            RuleVersion running = inForce.get(id);
            if (running != null && json.equals(definitions.get(running)) || json.equals(refused.get(id))) {
                continue;
            }
            try {
                Rule rule = Rules.parse(json);
                if (!rule.id().equals(id)) {
                    throw new IllegalArgumentException("the record's key is " + id + ", its rule's id " + rule.id());
                }
                if (running != null && rule.version() <= running.version()) {
                    throw new IllegalArgumentException(rule.version() == running.version()
                            ? "version " + rule.version() + " is in force with another definition: a changed rule"
                                    + " needs a higher version"
                            : "version " + rule.version() + " is older than version " + running.version()
                                    + " in force");
                }
                CompiledPattern<V> pattern = NfaCompiler.compile(spec.compiler().apply(rule));
                RuleVersion version = new RuleVersion(id, rule.version());
                ruleSet.apply(version, pattern, running, spec.policy());
                definitions.put(version, json);
                refused.remove(id);
                changed = true;
            } catch (RuntimeException failure) {
                refused.put(id, json);
                rejected.accept(id, failure.getClass().getSimpleName() + ": " + failure.getMessage());
            }
        }
        for (Map.Entry<String, RuleVersion> e : inForce.entrySet()) {
            if (!current.containsKey(e.getKey())) {
                ruleSet.apply(null, null, e.getValue(), spec.policy());
                changed = true;
            }
        }
        refused.keySet().retainAll(current.keySet());
        return changed;
    }

    /** Writes the JSON of every version present (a version that left is forgotten here). */
    void writeDefinitions(DataOutput out) throws IOException {
        Set<RuleVersion> present = new HashSet<>(ruleSet.presentVersions());
        definitions.keySet().retainAll(present);
        out.writeInt(definitions.size());
        for (Map.Entry<RuleVersion, String> e : definitions.entrySet()) {
            out.writeUTF(e.getKey().id());
            out.writeInt(e.getKey().version());
            writeLongText(e.getValue(), out);
        }
    }

    /** Reads what {@link #writeDefinitions} wrote, first in a restore. */
    void readDefinitions(DataInput in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > 10_000_000) {
            throw new IOException("the state's header holds " + count + " rule definitions");
        }
        for (int i = 0; i < count; i++) {
            definitions.put(new RuleVersion(in.readUTF(), in.readInt()), readLongText(in));
        }
    }

    /**
     * @return the pattern of a version the restored header names, compiled from the JSON it was put in force with
     * @throws UncheckedIOException if the header holds no JSON for it, or the JSON no longer compiles
     */
    CompiledPattern<V> compiledForRestore(RuleVersion version) {
        String json = definitions.get(version);
        if (json == null) {
            throw new UncheckedIOException(new IOException("the state holds rule " + version
                    + " but not its definition"));
        }
        try {
            return NfaCompiler.compile(spec.compiler().apply(Rules.parse(json)));
        } catch (RuntimeException e) {
            throw new UncheckedIOException(new IOException("rule " + version + ", which the state holds, no longer"
                    + " compiles: " + e.getMessage(), e));
        }
    }

    /** @return the versions present */
    List<RuleVersion> present() {
        return ruleSet.presentVersions();
    }

    private static void writeLongText(String text, DataOutput out) throws IOException {
        byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readLongText(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 64 << 20) {
            throw new IOException("a rule definition of " + n + " bytes");
        }
        byte[] utf8 = new byte[n];
        in.readFully(utf8);
        return new String(utf8, java.nio.charset.StandardCharsets.UTF_8);
    }
}

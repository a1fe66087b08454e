package io.cepheus.kafka.internal;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the rules topic in the rules' global store as it is: each rule id with its latest JSON, removed by a
 * tombstone. It validates nothing: every task parses and compiles what it finds there, and reports what it refuses.
 *
 * <p>Run by the application's global stream thread (and, when the store is rebuilt on start, on the records of the
 * topic again).
 */
public final class RulesTopicProcessor implements Processor<String, String, Void, Void> {

    private final String storeName;
    private KeyValueStore<String, String> store;

    /** @param storeName the global store's name */
    public RulesTopicProcessor(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, String> record) {
        if (record.key() == null) {
            return; // no rule id: nothing it could name
        }
        if (record.value() == null) {
            store.delete(record.key());
        } else {
            store.put(record.key(), record.value());
        }
    }
}

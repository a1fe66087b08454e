package io.cepheus.kafka;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A store whose contents outlive the {@link org.apache.kafka.streams.TopologyTestDriver} that wrote them, as a
 * state directory outlives an instance: a driver closes (its caches flushed into the store), a new driver on the
 * same {@code DurableStore} opens what the last one left. {@link #fromChangelog} makes one holding only what a
 * changelog topic's records say, as Kafka Streams rebuilds a wiped state directory. The test's disk, in memory.
 */
public final class DurableStore implements KeyValueBytesStoreSupplier {

    private final String name;
    private final ConcurrentSkipListMap<Bytes, byte[]> data = new ConcurrentSkipListMap<>();

    /** @param name the store's name (the processor's store name) */
    public DurableStore(String name) {
        this.name = name;
    }

    /**
     * @param name      the store's name
     * @param changelog the changelog topic's records, in order (a null value deletes its key)
     * @return a store holding what the changelog says
     */
    public static DurableStore fromChangelog(String name, List<KeyValue<Bytes, byte[]>> changelog) {
        DurableStore store = new DurableStore(name);
        for (KeyValue<Bytes, byte[]> r : changelog) {
            if (r.value == null) {
                store.data.remove(r.key);
            } else {
                store.data.put(r.key, r.value);
            }
        }
        return store;
    }

    /**
     * @param name    the store's name
     * @param strings its entries, as String keys and values
     * @return a store holding them
     */
    public static DurableStore of(String name, Map<String, String> strings) {
        DurableStore store = new DurableStore(name);
        strings.forEach((k, v) -> store.data.put(Bytes.wrap(k.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                v.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return store;
    }

    /** @return the contents now */
    public NavigableMap<Bytes, byte[]> contents() {
        return data;
    }

    /** @return whether the two stores hold the same entries */
    public boolean sameContents(DurableStore other) {
        if (!data.keySet().equals(other.data.keySet())) {
            return false;
        }
        for (Map.Entry<Bytes, byte[]> e : data.entrySet()) {
            if (!Arrays.equals(e.getValue(), other.data.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return new Store();
    }

    @Override
    public String metricsScope() {
        return "cepheus-durable-test";
    }

    private final class Store implements KeyValueStore<Bytes, byte[]> {
        private boolean open;
        private final Position position = Position.emptyPosition();

        @Override
        public String name() {
            return name;
        }

        @Override
        public void init(StateStoreContext context, StateStore root) {
            context.register(root, (key, value) -> {
                if (value == null) {
                    data.remove(Bytes.wrap(key));
                } else {
                    data.put(Bytes.wrap(key), value);
                }
            });
            open = true;
        }

        @Override
        public void close() {
            open = false;
        }

        @Override
        public Position getPosition() {
            return position;
        }

        @Override
        public boolean persistent() {
            return true;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void put(Bytes key, byte[] value) {
            if (value == null) {
                data.remove(key);
            } else {
                data.put(key, value);
            }
        }

        @Override
        public byte[] putIfAbsent(Bytes key, byte[] value) {
            byte[] old = data.get(key);
            if (old == null) {
                put(key, value);
            }
            return old;
        }

        @Override
        public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
            for (KeyValue<Bytes, byte[]> e : entries) {
                put(e.key, e.value);
            }
        }

        @Override
        public byte[] delete(Bytes key) {
            return data.remove(key);
        }

        @Override
        public byte[] get(Bytes key) {
            return data.get(key);
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
            NavigableMap<Bytes, byte[]> view = data;
            if (from != null) {
                view = view.tailMap(from, true);
            }
            if (to != null) {
                view = view.headMap(to, true);
            }
            return iterator(view);
        }

        @Override
        public KeyValueIterator<Bytes, byte[]> all() {
            return iterator(data);
        }

        @Override
        public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS serializer) {
            byte[] p = serializer.serialize(null, prefix);
            List<KeyValue<Bytes, byte[]>> out = new ArrayList<>();
            for (Map.Entry<Bytes, byte[]> e : data.tailMap(Bytes.wrap(p), true).entrySet()) {
                byte[] k = e.getKey().get();
                if (k.length < p.length || !Arrays.equals(k, 0, p.length, p, 0, p.length)) {
                    break;
                }
                out.add(KeyValue.pair(e.getKey(), e.getValue()));
            }
            return new ListIterator(out);
        }

        @Override
        public long approximateNumEntries() {
            return data.size();
        }

        private KeyValueIterator<Bytes, byte[]> iterator(NavigableMap<Bytes, byte[]> view) {
            List<KeyValue<Bytes, byte[]>> out = new ArrayList<>();
            view.forEach((k, v) -> out.add(KeyValue.pair(k, v)));
            return new ListIterator(out);
        }
    }

    private static final class ListIterator implements KeyValueIterator<Bytes, byte[]> {
        private final Iterator<KeyValue<Bytes, byte[]>> it;
        private KeyValue<Bytes, byte[]> next;

        ListIterator(List<KeyValue<Bytes, byte[]>> entries) {
            this.it = entries.iterator();
            this.next = it.hasNext() ? it.next() : null;
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            KeyValue<Bytes, byte[]> current = next;
            next = it.hasNext() ? it.next() : null;
            return current;
        }

        @Override
        public Bytes peekNextKey() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            return next.key;
        }

        @Override
        public void close() {
        }
    }
}

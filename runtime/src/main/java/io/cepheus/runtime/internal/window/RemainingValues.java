package io.cepheus.runtime.internal.window;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** The not-evicted values of a window for its process function, reused; owned by the shard thread. */
final class RemainingValues implements Iterable<Object> {
    private EvictionView view;

    @SuppressWarnings("unchecked")
    <X> Iterable<X> of(EvictionView v) {
        this.view = v;
        return (Iterable<X>) this;
    }

    @Override
    public Iterator<Object> iterator() {
        return new Iterator<>() {
            private int next = advance(0);

            private int advance(int from) {
                int i = from;
                while (i < view.size() && view.isEvicted(i)) {
                    i++;
                }
                return i;
            }

            @Override
            public boolean hasNext() {
                return next < view.size();
            }

            @Override
            public Object next() {
                if (next >= view.size()) {
                    throw new NoSuchElementException();
                }
                Object v = view.value(next);
                next = advance(next + 1);
                return v;
            }
        };
    }
}

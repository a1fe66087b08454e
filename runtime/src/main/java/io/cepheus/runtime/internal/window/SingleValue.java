package io.cepheus.runtime.internal.window;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** A one-value iterable (an incremental window's value for its process function), reused; shard thread. */
final class SingleValue implements Iterable<Object> {
    private Object value;

    @SuppressWarnings("unchecked")
    <X> Iterable<X> of(X v) {
        this.value = v;
        return (Iterable<X>) this;
    }

    @Override
    public Iterator<Object> iterator() {
        return new Iterator<>() {
            private boolean done;

            @Override
            public boolean hasNext() {
                return !done;
            }

            @Override
            public Object next() {
                if (done) {
                    throw new NoSuchElementException();
                }
                done = true;
                return value;
            }
        };
    }
}

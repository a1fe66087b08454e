package io.cepheus.examples.cli;

import java.util.Iterator;

/**
 * Where the runner's events come from: a reader over a file, or events in memory.
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface EventSource<E> {

    /**
     * @return the next event, or null at the end
     * @throws MalformedLineException if the next line cannot be read as an event (call again to go on)
     */
    E next();

    /**
     * @param events events in memory
     * @param <E>    the event type
     * @return a source over them
     */
    static <E> EventSource<E> of(Iterable<E> events) {
        Iterator<E> it = events.iterator();
        return () -> it.hasNext() ? it.next() : null;
    }
}

package io.cepheus.pattern;

import java.util.Map;

/**
 * A condition that can name the fields of the event it reads, with their values. A trace that explains why a
 * partial match skipped an event or ended at a stage shows these values (a condition without it shows the event
 * as a whole). Conditions written as rule expressions implement it.
 *
 * <p>Called only for traced keys, never on the matching path, so it may allocate.
 *
 * @param <T> the event type
 */
public interface ReadsFields<T> {
    /**
     * @param event an event the condition was tested on
     * @return the fields it reads, in the order it reads them, by name, with their values on {@code event} (a value
     *     that cannot be read is described by a string saying why)
     */
    Map<String, Object> fieldValues(T event);
}

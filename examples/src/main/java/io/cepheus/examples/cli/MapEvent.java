package io.cepheus.examples.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One input line as a map of its fields, what rules written as data match against (a CSV row under its header,
 * a JSON Lines object), with its key and event time read once. The time field holds the event time in epoch
 * milliseconds, whatever form the input gave it in, so that a rule can compute with it
 * ({@code time - last(cart.time) < 30000}).
 */
final class MapEvent extends LinkedHashMap<String, Object> {

    private static final long serialVersionUID = 1L;

    private final transient Object key;
    private final long time;

    /**
     * @param fields the fields, in input order (the time field already in epoch milliseconds)
     * @param key    the value the events are keyed by
     * @param time   the event time, epoch milliseconds
     */
    MapEvent(Map<String, Object> fields, Object key, long time) {
        super(fields);
        this.key = key;
        this.time = time;
    }

    /** @return the value the events are keyed by */
    Object key() {
        return key;
    }

    /** @return the event time, epoch milliseconds */
    long time() {
        return time;
    }
}

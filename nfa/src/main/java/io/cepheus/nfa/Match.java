package io.cepheus.nfa;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A complete match, or a timed-out partial one: the events taken, grouped by stage. Stages come in pattern
 * order, events in time order; stages that took no event (a skipped optional stage, a NOT stage) are absent.
 * Immutable.
 *
 * @param <T> the event type
 */
public final class Match<T> {

    private final List<String> stageNames;
    private final Object[] events;
    private final int[] stageOf;
    private final long[] timestamps;

    private Match(List<String> stageNames, Object[] events, int[] stageOf, long[] timestamps) {
        this.stageNames = stageNames;
        this.events = events;
        this.stageOf = stageOf;
        this.timestamps = timestamps;
    }

    /**
     * Builds a match from parallel arrays; the arrays are taken over, not copied.
     *
     * @param stageNames all stage names of the pattern, in pattern order
     * @param events     the events, oldest first
     * @param stageOf    for each event, the index of its stage in {@code stageNames}
     * @param timestamps for each event, its event time
     * @param <T>        the event type
     * @return the match
     */
    static <T> Match<T> wrap(List<String> stageNames, Object[] events, int[] stageOf, long[] timestamps) {
        return new Match<>(stageNames, events, stageOf, timestamps);
    }

    /**
     * Builds a match, as a codec that wrote one reads it back.
     *
     * @param stageNames all stage names of the pattern, in pattern order
     * @param events     the events, oldest first
     * @param stageOf    for each event, the index of its stage in {@code stageNames}
     * @param timestamps for each event, its event time
     * @param <T>        the event type
     * @return the match
     * @throws IllegalArgumentException if the lists and arrays differ in length, a stage index is out of range, or
     *                                  the match has no event
     */
    public static <T> Match<T> of(List<String> stageNames, List<T> events, int[] stageOf, long[] timestamps) {
        List<String> names = List.copyOf(stageNames);
        if (events.isEmpty() || events.size() != stageOf.length || events.size() != timestamps.length) {
            throw new IllegalArgumentException("a match needs as many stage indexes and timestamps as events (at least"
                    + " one): " + events.size() + " events, " + stageOf.length + " stage indexes, "
                    + timestamps.length + " timestamps");
        }
        for (int s : stageOf) {
            if (s < 0 || s >= names.size()) {
                throw new IllegalArgumentException("stage index " + s + " is not one of the " + names.size()
                        + " stages " + names);
            }
        }
        return new Match<>(names, events.toArray(), stageOf.clone(), timestamps.clone());
    }

    /** @return every stage name of the pattern, in pattern order (also those that took no event here) */
    public List<String> stageNames() {
        return Collections.unmodifiableList(stageNames);
    }

    /**
     * @param index position in the match, 0 = oldest
     * @return the index in {@link #stageNames()} of the stage that took that event
     */
    public int stageIndex(int index) {
        return stageOf[index];
    }

    /** @return the number of events in the match */
    public int size() {
        return events.length;
    }

    /**
     * @param stage a stage name
     * @return the events that stage took, oldest first; empty if it took none
     */
    @SuppressWarnings("unchecked")
    public List<T> events(String stage) {
        int index = stageNames.indexOf(Objects.requireNonNull(stage, "stage"));
        if (index < 0) {
            throw new IllegalArgumentException("the pattern has no stage '" + stage + "'; stages: " + stageNames);
        }
        List<T> out = new ArrayList<>();
        for (int i = 0; i < events.length; i++) {
            if (stageOf[i] == index) {
                out.add((T) events[i]);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** @return every event of the match, oldest first */
    @SuppressWarnings("unchecked")
    public List<T> allEvents() {
        List<T> out = new ArrayList<>(events.length);
        for (Object e : events) {
            out.add((T) e);
        }
        return Collections.unmodifiableList(out);
    }

    /** @return stage name to events, in pattern order, only stages that took events */
    @SuppressWarnings("unchecked")
    public Map<String, List<T>> asMap() {
        Map<String, List<T>> out = new LinkedHashMap<>();
        for (int s = 0; s < stageNames.size(); s++) {
            List<T> list = null;
            for (int i = 0; i < events.length; i++) {
                if (stageOf[i] == s) {
                    if (list == null) {
                        list = new ArrayList<>();
                    }
                    list.add((T) events[i]);
                }
            }
            if (list != null) {
                out.put(stageNames.get(s), Collections.unmodifiableList(list));
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** @return the event time of the oldest event */
    public long firstTimestamp() {
        return timestamps[0];
    }

    /** @return the event time of the newest event */
    public long lastTimestamp() {
        return timestamps[timestamps.length - 1];
    }

    /**
     * @param index position in the match, 0 = oldest
     * @return that event's time
     */
    public long timestamp(int index) {
        return timestamps[index];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Match<?> m && asMap().equals(m.asMap());
    }

    @Override
    public int hashCode() {
        return asMap().hashCode();
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}

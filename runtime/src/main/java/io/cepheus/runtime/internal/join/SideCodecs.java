package io.cepheus.runtime.internal.join;

import io.cepheus.nfa.EventCodec;

/**
 * How a join's snapshot writes the elements it holds of its two sides: with the engine's event codec when the
 * sides are selected by class (the elements are events themselves), or with codecs given for the sides.
 *
 * @param sidesAreEvents whether each side's elements are the events themselves
 * @param first          writes the first side's elements (left, or stream elements), or null
 * @param second         writes the second side's elements (right, or versions), or null
 */
public record SideCodecs(boolean sidesAreEvents, EventCodec<Object> first, EventCodec<Object> second) {

    /** Sides selected by functions, without codecs: the join cannot be snapshotted. */
    public static final SideCodecs NONE = new SideCodecs(false, null, null);

    /**
     * @param sidesAreEvents whether the sides are selected by class
     * @param first          the first side's codec, or null
     * @param second         the second side's codec, or null
     * @return the codecs
     */
    @SuppressWarnings("unchecked")
    public static SideCodecs of(boolean sidesAreEvents, EventCodec<?> first, EventCodec<?> second) {
        return new SideCodecs(sidesAreEvents, (EventCodec<Object>) first, (EventCodec<Object>) second);
    }

    /** @return the first side's codec; {@code events} when the sides are events */
    EventCodec<Object> first(EventCodec<?> events, String join) {
        return pick(first, events, join);
    }

    /** @return the second side's codec; {@code events} when the sides are events */
    EventCodec<Object> second(EventCodec<?> events, String join) {
        return pick(second, events, join);
    }

    @SuppressWarnings("unchecked")
    private EventCodec<Object> pick(EventCodec<Object> given, EventCodec<?> events, String join) {
        if (given != null) {
            return given;
        }
        if (sidesAreEvents) {
            return (EventCodec<Object>) events;
        }
        throw new IllegalStateException(join + " cannot be snapshotted: its sides are selected by functions and have"
                + " no codecs (snapshotCodecs on the join)");
    }
}

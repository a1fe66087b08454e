package io.cepheus.runtime;

import java.util.Objects;

/**
 * Names a typed side output: late events, timed-out partial matches, dead letters, or anything a process
 * function emits besides its main output. Two tags are the same output when their ids are equal.
 *
 * @param id   the side output's name, unique within an engine
 * @param type the type of the records it carries
 * @param <T>  that type
 */
public record OutputTag<T>(String id, Class<T> type) {

    /**
     * Validates the tag.
     *
     * @param id   the side output's name, unique within an engine
     * @param type the type of the records it carries
     */
    public OutputTag {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        if (id.isBlank()) {
            throw new IllegalArgumentException("an output tag needs a non-blank id");
        }
    }

    /**
     * @param id   the side output's name
     * @param type the record type
     * @param <T>  that type
     * @return the tag
     */
    public static <T> OutputTag<T> of(String id, Class<T> type) {
        return new OutputTag<>(id, type);
    }
}

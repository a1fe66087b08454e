package io.cepheus.nfa.trace;

import io.cepheus.nfa.Match;
import java.util.Map;
import java.util.Objects;

/**
 * One thing that happened to a traced key. Partial matches are numbered per key from 1, in the order they began;
 * {@code time} is the event time at which it happened (the event's, or the time the key was advanced to).
 */
public sealed interface TraceEntry {

    /** @return the event time at which it happened */
    long time();

    /**
     * An event of the key reached the pattern, in event-time order.
     *
     * @param time  its timestamp
     * @param event the event
     */
    record Event(long time, Object event) implements TraceEntry {
    }

    /**
     * An event arrived behind the watermark and was not matched.
     *
     * @param time      its timestamp
     * @param event     the event
     * @param watermark the watermark then
     */
    record Late(long time, Object event, long watermark) implements TraceEntry {
    }

    /**
     * The watermark moved to {@code time}: partial matches whose window closed by then time out.
     *
     * @param time the watermark
     */
    record Watermark(long time) implements TraceEntry {
    }

    /**
     * The event began a partial match, taken by a stage.
     *
     * @param time         the event's timestamp
     * @param partialMatch the new partial match's number
     * @param stage        the stage that took the event
     */
    record Started(long time, int partialMatch, String stage) implements TraceEntry {
    }

    /**
     * A partial match took the event into a stage. With {@code from} set, it is a new partial match branched off
     * {@code from} (which lives on as well), as relaxed contiguity and loops do.
     *
     * @param time         the event's timestamp
     * @param partialMatch the partial match
     * @param from         the partial match it branched off, 0 if it is the same one
     * @param stage        the stage that took the event
     */
    record Took(long time, int partialMatch, int from, String stage) implements TraceEntry {
    }

    /**
     * A partial match let the event pass without taking it (relaxed contiguity), because the condition of the stage
     * it waits for was false.
     *
     * @param time         the event's timestamp
     * @param partialMatch the partial match
     * @param stage        the stage it waits for
     * @param fields       the values of the fields that stage's condition reads, empty if it does not say
     */
    record Skipped(long time, int partialMatch, String stage, Map<String, Object> fields) implements TraceEntry {
        /**
         * Copies the fields.
         *
         * @param time         the event's timestamp
         * @param partialMatch the partial match
         * @param stage        the stage it waits for
         * @param fields       the values of the fields that stage's condition reads
         */
        public Skipped {
            fields = copy(fields);
        }
    }

    /**
     * A partial match completed a match (which a skip strategy may hold back until earlier partial matches end).
     *
     * @param time         the time it completed
     * @param partialMatch the partial match
     * @param match        the match
     * @param continues    whether the partial match lives on as well (a loop that may take more events); if not,
     *                     completing ended it
     */
    record Completed(long time, int partialMatch, Match<?> match, boolean continues) implements TraceEntry {
    }

    /**
     * A partial match ended without a match.
     *
     * @param time         when: the event's timestamp, or the time it timed out
     * @param partialMatch the partial match
     * @param reason       why
     * @param stage        the stage it waited for (or whose gap closed, or that saw its event), null if none
     * @param detail       a sentence saying what happened
     * @param fields       for {@link EndReason#CONDITION_FALSE} and {@link EndReason#NOT_STAGE_MATCHED}, the values of
     *                     the fields the stage's condition reads; empty otherwise or if it does not say
     */
    record Ended(long time, int partialMatch, EndReason reason, String stage, String detail,
            Map<String, Object> fields) implements TraceEntry {
        /**
         * Checks the reason is there and copies the fields.
         *
         * @param time         when it ended
         * @param partialMatch the partial match
         * @param reason       why
         * @param stage        the stage, or null
         * @param detail       a sentence saying what happened
         * @param fields       the values of the fields the stage's condition reads
         */
        public Ended {
            Objects.requireNonNull(reason, "reason");
            fields = copy(fields);
        }
    }

    private static Map<String, Object> copy(Map<String, Object> fields) {
        // a field's value may be null (a missing field): Map.copyOf would refuse it
        return fields.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
    }
}

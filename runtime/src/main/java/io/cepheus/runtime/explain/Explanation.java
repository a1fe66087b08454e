package io.cepheus.runtime.explain;

import io.cepheus.nfa.trace.EndReason;
import io.cepheus.nfa.trace.TraceEntry;
import java.util.List;
import java.util.Objects;

/**
 * The trace of one key for one pattern or rule version: what happened to its partial matches, event by event, in the
 * order it happened (see {@link TraceEntry}), with the watermark's moves and the key's late events. {@link #toString()}
 * is a readable timeline, for a test's failure message or a terminal.
 *
 * <p>A trace keeps its latest entries up to a bound ({@code droppedEntries} counts the older ones it let go), so that a
 * key traced for long holds bounded memory.
 *
 * @param key            the key
 * @param subject        what was traced: {@code "pattern 0"}, {@code "rule brute-force v3"}
 * @param stages         the pattern's stage names, in order
 * @param entries        the entries kept, oldest first
 * @param droppedEntries older entries let go at the bound
 */
public record Explanation(Object key, String subject, List<String> stages, List<TraceEntry> entries,
        long droppedEntries) {

    /**
     * Copies the lists.
     *
     * @param key            the key
     * @param subject        what was traced
     * @param stages         the pattern's stage names
     * @param entries        the entries kept, oldest first
     * @param droppedEntries older entries let go at the bound
     */
    public Explanation {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(subject, "subject");
        stages = List.copyOf(stages);
        entries = List.copyOf(entries);
    }

    /** @return the partial matches that ended without a match, in the order they ended */
    public List<TraceEntry.Ended> ended() {
        return entries.stream().filter(TraceEntry.Ended.class::isInstance).map(TraceEntry.Ended.class::cast).toList();
    }

    /**
     * @param reason a reason
     * @return the partial matches that ended for it
     */
    public List<TraceEntry.Ended> ended(EndReason reason) {
        return ended().stream().filter(e -> e.reason() == reason).toList();
    }

    /** @return the matches completed, in order */
    public List<TraceEntry.Completed> completed() {
        return entries.stream().filter(TraceEntry.Completed.class::isInstance).map(TraceEntry.Completed.class::cast)
                .toList();
    }

    /** @return the timeline as text: one line per event and per thing that happened to a partial match */
    public String timeline() {
        return TimelineText.render(this, t -> "t=" + t);
    }

    /**
     * @param timeFormat writes a time for a reader (an epoch-millisecond time as a date, say)
     * @return the timeline as text, its times written by {@code timeFormat}
     */
    public String timeline(java.util.function.LongFunction<String> timeFormat) {
        return TimelineText.render(this, timeFormat);
    }

    /** @return {@link #timeline()} */
    @Override
    public String toString() {
        return timeline();
    }
}

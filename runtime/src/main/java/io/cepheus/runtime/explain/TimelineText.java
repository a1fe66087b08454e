package io.cepheus.runtime.explain;

import io.cepheus.nfa.trace.TraceEntry;
import java.util.Map;
import java.util.TreeMap;

/** Writes an {@link Explanation} as a timeline a person reads: a time column, then what happened. */
final class TimelineText {

    private TimelineText() {
    }

    static String render(Explanation x, java.util.function.LongFunction<String> timeFormat) {
        StringBuilder out = new StringBuilder();
        out.append("trace of key ").append(x.key()).append(" for ").append(x.subject()).append(" (stages ")
                .append(String.join(", ", x.stages())).append(")\n");
        if (x.droppedEntries() > 0) {
            out.append("  (").append(x.droppedEntries()).append(" earlier entries were let go at the trace's bound)\n");
        }
        Map<String, Integer> endings = new TreeMap<>();
        int open = 0;
        int width = 0;
        for (TraceEntry e : x.entries()) {
            width = Math.max(width, time(e.time(), timeFormat).length());
        }
        for (TraceEntry e : x.entries()) {
            String at = time(e.time(), timeFormat);
            out.append(" ".repeat(width - at.length() + 2)).append(at).append("  ").append(describe(e, timeFormat))
                    .append('\n');
            if (e instanceof TraceEntry.Started || (e instanceof TraceEntry.Took t && t.from() != 0)) {
                open++;
            } else if (e instanceof TraceEntry.Ended end) {
                open--;
                endings.merge(end.reason().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), 1,
                        Integer::sum);
            } else if (e instanceof TraceEntry.Completed c) {
                endings.merge("completed", 1, Integer::sum);
                if (!c.continues()) {
                    open--;
                }
            }
        }
        out.append("summary: ");
        endings.forEach((what, n) -> out.append(n).append(' ').append(what).append(", "));
        out.append(Math.max(open, 0)).append(" still open (of those the trace saw begin)");
        return out.toString();
    }

    private static String time(long t, java.util.function.LongFunction<String> timeFormat) {
        return t == Long.MAX_VALUE ? "end of input" : timeFormat.apply(t);
    }

    /** @return one line saying what the entry means */
    static String describe(TraceEntry e, java.util.function.LongFunction<String> timeFormat) {
        if (e instanceof TraceEntry.Event ev) {
            return "event " + ev.event();
        } else if (e instanceof TraceEntry.Late late) {
            return "late event " + late.event() + ": at or behind the watermark " + timeFormat.apply(late.watermark())
                    + ", not matched";
        } else if (e instanceof TraceEntry.Watermark) {
            return "watermark";
        } else if (e instanceof TraceEntry.Started s) {
            return "  #" + s.partialMatch() + " started: stage '" + s.stage() + "' took the event";
        } else if (e instanceof TraceEntry.Took t) {
            if (t.from() != 0) {
                return "  #" + t.partialMatch() + " branched off #" + t.from()
                        + (t.stage() == null ? ", letting the event pass"
                                : ": stage '" + t.stage() + "' took the event");
            }
            return "  #" + t.partialMatch() + " stage '" + t.stage() + "' took the event";
        } else if (e instanceof TraceEntry.Skipped s) {
            return "  #" + s.partialMatch() + " let the event pass: the condition of stage '" + s.stage()
                    + "' was false" + fields(s.fields());
        } else if (e instanceof TraceEntry.Completed c) {
            return "  #" + c.partialMatch() + " completed a match " + c.match().asMap()
                    + (c.continues() ? " and goes on" : "");
        } else if (e instanceof TraceEntry.Ended end) {
            return "  #" + end.partialMatch() + " ended, " + end.reason().name().toLowerCase(java.util.Locale.ROOT)
                    .replace('_', ' ') + (end.stage() == null ? "" : " at stage '" + end.stage() + "'") + ": "
                    + end.detail() + fields(end.fields());
        }
        return e.toString();
    }

    private static String fields(Map<String, Object> fields) {
        if (fields.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(" (");
        String sep = "";
        for (Map.Entry<String, Object> f : fields.entrySet()) {
            sb.append(sep).append(f.getKey()).append(" = ").append(f.getValue());
            sep = ", ";
        }
        return sb.append(')').toString();
    }
}

package io.cepheus.examples.cli;

import io.cepheus.nfa.trace.TraceEntry;
import io.cepheus.runtime.explain.Explanation;
import io.cepheus.runtime.rules.RuleVersion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * One self-contained HTML page of key traces ({@code cepheus explain --html FILE}): no external scripts, fonts or
 * network. Per key and rule version, an SVG timeline: the key's events on a time axis (hovering one shows its fields;
 * late ones hollow), the watermark where the input left it, and each partial match as a bar from its first event to
 * where it ended, its colour and label saying how it ended.
 *
 * <p>The page marks what a reader or a test looks for: each section is a {@code section.trace} with
 * {@code data-key} and {@code data-rule}; each partial match a {@code g.partial-match} with {@code data-pm} and
 * {@code data-outcome}, holding a {@code rect.bar} and a {@code text.label}; each event a {@code circle.event}.
 */
final class ExplainPage {

    private static final int WIDTH = 1100;
    private static final int LEFT = 20;
    private static final int RIGHT = 340;
    private static final int EVENTS_Y = 40;
    private static final int FIRST_ROW_Y = 80;
    private static final int ROW = 26;

    /** How one partial match ended, as a class name and a colour. */
    private enum Outcome {
        COMPLETED("completed", "#2e7d32"),
        CONDITION_FALSE("condition false", "#c62828"),
        NOT_STAGE_MATCHED("not stage matched", "#ad1457"),
        TIMED_OUT("timed out", "#ef6c00"),
        PRUNED("pruned", "#757575"),
        REJECTED("rejected", "#6a1b9a"),
        DISCARDED("discarded", "#9e9e9e"),
        OPEN("still open", "#1565c0");

        final String label;
        final String colour;

        Outcome(String label, String colour) {
            this.label = label;
            this.colour = colour;
        }

        String cssClass() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** One partial match's bar: where it began and ended, and how. */
    private static final class Bar {
        final int number;
        final long from;
        long to;
        Outcome outcome = Outcome.OPEN;
        String detail = "";

        /** A few words beside the bar; the whole reason is in its tooltip. */
        String label;

        Bar(int number, long from) {
            this.number = number;
            this.from = from;
            this.to = from;
        }
    }

    private ExplainPage() {
    }

    /**
     * @param title      the page's title
     * @param traces     per key, per rule version, its trace
     * @param timeFormat writes a time for a reader
     * @return the page
     */
    static String render(String title, Map<String, Map<RuleVersion, Explanation>> traces,
            LongFunction<String> timeFormat) {
        StringBuilder html = new StringBuilder(16_384);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(escape(title)).append("</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n")
                .append("<h1>").append(escape(title)).append("</h1>\n").append(legend());
        for (Map.Entry<String, Map<RuleVersion, Explanation>> key : traces.entrySet()) {
            for (Map.Entry<RuleVersion, Explanation> rule : key.getValue().entrySet()) {
                section(html, key.getKey(), rule.getKey(), rule.getValue(), timeFormat);
            }
        }
        html.append("<div id=\"tip\" class=\"tip\" hidden></div>\n<script>\n").append(SCRIPT)
                .append("</script>\n</body>\n</html>\n");
        return html.toString();
    }

    private static String legend() {
        StringBuilder sb = new StringBuilder("<p class=\"legend\">");
        for (Outcome o : Outcome.values()) {
            sb.append("<span><i style=\"background:").append(o.colour).append("\"></i>").append(o.label)
                    .append("</span>");
        }
        return sb.append("<span><i class=\"late\"></i>late event</span><span><i class=\"wm\"></i>watermark</span>")
                .append("</p>\n").toString();
    }

    private static void section(StringBuilder html, String key, RuleVersion rule, Explanation x,
            LongFunction<String> timeFormat) {
        List<Bar> bars = bars(x);
        List<TraceEntry> events = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (TraceEntry e : x.entries()) {
            if (e instanceof TraceEntry.Event || e instanceof TraceEntry.Late) {
                events.add(e);
            }
            if (e instanceof TraceEntry.Watermark w) {
                if (w.time() != Long.MAX_VALUE) {
                    watermark = Math.max(watermark, w.time());
                }
                continue;
            }
            if (e.time() != Long.MAX_VALUE) {
                min = Math.min(min, e.time());
                max = Math.max(max, e.time());
            }
        }
        if (watermark != Long.MIN_VALUE && min != Long.MAX_VALUE) {
            max = Math.max(max, watermark);
        }
        html.append("<section class=\"trace\" data-key=\"").append(escape(key)).append("\" data-rule=\"")
                .append(escape(rule.id())).append("\" data-version=\"").append(rule.version()).append("\">\n<h2>key ")
                .append(escape(key)).append(" &middot; rule ").append(escape(rule.id())).append(" v")
                .append(rule.version()).append("</h2>\n");
        if (min == Long.MAX_VALUE) {
            html.append("<p class=\"empty\">no event of this key reached the rule</p>\n</section>\n");
            return;
        }
        Scale scale = new Scale(min, max);
        int height = FIRST_ROW_Y + bars.size() * ROW + 30;
        html.append("<svg width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" xmlns=\"http://www.w3.org/2000/svg\">\n");
        html.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT)
                .append("\" y1=\"").append(EVENTS_Y).append("\" y2=\"").append(EVENTS_Y).append("\"/>\n");
        html.append("<text class=\"tick\" x=\"").append(LEFT).append("\" y=\"").append(EVENTS_Y - 22).append("\">")
                .append(escape(timeFormat.apply(min))).append("</text>\n");
        html.append("<text class=\"tick\" text-anchor=\"end\" x=\"").append(WIDTH - RIGHT).append("\" y=\"")
                .append(EVENTS_Y - 22).append("\">").append(escape(timeFormat.apply(max))).append("</text>\n");
        if (watermark != Long.MIN_VALUE) {
            int wx = scale.x(watermark);
            html.append("<line class=\"watermark\" x1=\"").append(wx).append("\" x2=\"").append(wx).append("\" y1=\"")
                    .append(EVENTS_Y - 10).append("\" y2=\"").append(height - 20).append("\"/>\n")
                    .append("<text class=\"wm-label\" x=\"").append(wx + 4).append("\" y=\"").append(height - 8)
                    .append("\">watermark ").append(escape(timeFormat.apply(watermark))).append("</text>\n");
        }
        for (int i = 0; i < bars.size(); i++) {
            Bar b = bars.get(i);
            int y = FIRST_ROW_Y + i * ROW;
            int x1 = scale.x(b.from);
            int x2 = Math.max(x1 + 6, scale.x(b.to == Long.MAX_VALUE ? max : b.to));
            String label = "#" + b.number + " " + b.outcome.label + (b.detail.isEmpty() ? "" : ": " + b.detail);
            html.append("<g class=\"partial-match ").append(b.outcome.cssClass()).append("\" data-pm=\"")
                    .append(b.number).append("\" data-outcome=\"").append(b.outcome.label).append("\">")
                    .append("<rect class=\"bar\" x=\"").append(x1).append("\" y=\"").append(y).append("\" width=\"")
                    .append(x2 - x1).append("\" height=\"16\" rx=\"3\" fill=\"").append(b.outcome.colour)
                    .append("\"><title>").append(escape(label)).append("</title></rect>")
                    .append("<text class=\"label\" x=\"").append(x2 + 6).append("\" y=\"").append(y + 12)
                    .append("\">").append(escape("#" + b.number + " " + (b.label != null ? b.label : b.outcome.label)))
                    .append("</text></g>\n");
        }
        for (TraceEntry e : events) {
            boolean isLate = e instanceof TraceEntry.Late;
            Object event = isLate ? ((TraceEntry.Late) e).event() : ((TraceEntry.Event) e).event();
            String fields = timeFormat.apply(e.time()) + "  " + event
                    + (isLate ? "  (late: watermark " + timeFormat.apply(((TraceEntry.Late) e).watermark()) + ")" : "");
            html.append("<circle class=\"event").append(isLate ? " late" : "").append("\" cx=\"")
                    .append(scale.x(e.time())).append("\" cy=\"").append(EVENTS_Y).append("\" r=\"6\" data-fields=\"")
                    .append(escape(fields)).append("\"><title>").append(escape(fields)).append("</title></circle>\n");
        }
        html.append("</svg>\n</section>\n");
    }

    /** The partial matches of a trace, in the order they began, each from its first entry to how it ended. */
    private static List<Bar> bars(Explanation x) {
        Map<Integer, Bar> bars = new LinkedHashMap<>();
        for (TraceEntry e : x.entries()) {
            int number = numberOf(e);
            if (number == 0) {
                continue;
            }
            Bar b = bars.computeIfAbsent(number, n -> new Bar(n, e.time()));
            b.to = Math.max(b.to, e.time());
            if (e instanceof TraceEntry.Completed c && !c.continues()) {
                b.outcome = Outcome.COMPLETED;
                b.detail = "matched " + c.match().size() + " events";
                b.label = "completed: " + c.match().size() + " events";
            } else if (e instanceof TraceEntry.Completed) {
                b.detail = "completed a match and went on";
            } else if (e instanceof TraceEntry.Ended end) {
                b.outcome = Outcome.valueOf(end.reason().name());
                String at = end.stage() == null ? "" : " at '" + end.stage() + "'";
                b.detail = (end.stage() == null ? "" : "at '" + end.stage() + "': ") + end.detail();
                b.label = switch (end.reason()) {
                    case CONDITION_FALSE -> "condition false" + at
                            + (end.detail().startsWith("strict") ? " (strict contiguity)" : "");
                    case NOT_STAGE_MATCHED -> "ended by NOT stage" + at;
                    case TIMED_OUT -> "timed out" + at;
                    case PRUNED -> "pruned by the skip strategy";
                    case REJECTED -> "rejected at the key's bound";
                    case DISCARDED -> "discarded with its rule version";
                };
            }
        }
        return new ArrayList<>(bars.values());
    }

    private static int numberOf(TraceEntry e) {
        if (e instanceof TraceEntry.Started s) {
            return s.partialMatch();
        } else if (e instanceof TraceEntry.Took t) {
            return t.partialMatch();
        } else if (e instanceof TraceEntry.Skipped s) {
            return s.partialMatch();
        } else if (e instanceof TraceEntry.Completed c) {
            return c.partialMatch();
        } else if (e instanceof TraceEntry.Ended end) {
            return end.partialMatch();
        }
        return 0;
    }

    /** Event time to x, between the margins. */
    private record Scale(long min, long max) {
        int x(long t) {
            double span = Math.max(1, max - min);
            return LEFT + (int) Math.round((WIDTH - LEFT - RIGHT) * ((double) Math.min(Math.max(t, min), max) - min)
                    / span);
        }
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    private static final String STYLE = """
            body { font: 14px system-ui, sans-serif; margin: 24px; color: #222; }
            h1 { font-size: 20px; } h2 { font-size: 16px; margin: 20px 0 4px; }
            section.trace { border-top: 1px solid #ddd; }
            .legend span { margin-right: 14px; white-space: nowrap; }
            .legend i { display: inline-block; width: 14px; height: 10px; margin-right: 4px; border-radius: 2px; }
            .legend i.late { border: 2px solid #c62828; border-radius: 50%; width: 8px; height: 8px; }
            .legend i.wm { border-left: 2px dashed #1565c0; width: 0; }
            .axis { stroke: #999; } .tick, .wm-label { font-size: 11px; fill: #555; }
            .watermark { stroke: #1565c0; stroke-dasharray: 4 3; }
            circle.event { fill: #37474f; cursor: pointer; } circle.event:hover { fill: #000; r: 8; }
            circle.event.late { fill: #fff; stroke: #c62828; stroke-width: 2; }
            .label { font-size: 12px; fill: #222; }
            .tip { position: fixed; background: #263238; color: #fff; padding: 6px 8px; border-radius: 4px;
                   font: 12px ui-monospace, monospace; pointer-events: none; max-width: 600px; }
            """;

    /** Shows an event's fields beside the pointer; marks the page ready, so that a test knows the script ran. */
    private static final String SCRIPT = """
            (function () {
              var tip = document.getElementById('tip');
              document.querySelectorAll('circle.event').forEach(function (c) {
                c.addEventListener('mouseenter', function (ev) {
                  tip.textContent = c.getAttribute('data-fields');
                  tip.hidden = false;
                  tip.style.left = (ev.clientX + 12) + 'px';
                  tip.style.top = (ev.clientY + 12) + 'px';
                });
                c.addEventListener('mouseleave', function () { tip.hidden = true; });
              });
              document.body.setAttribute('data-bars', document.querySelectorAll('rect.bar').length);
              document.body.setAttribute('data-ready', 'true');
            })();
            """;
}

package io.cepheus.runtime.conformance.windows;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One case of the window and join conformance suite ({@code conformance/windows/FORMAT.md} in the repository): its
 * settings as written and its input tokens in file order.
 *
 * @param name     the case name
 * @param settings every {@code key: value} of the case (continuation lines joined with a space), e.g.
 *                 {@code kind}, {@code assigner}, {@code trigger}, {@code evictor}, {@code lateness},
 *                 {@code function}, {@code bounds}, {@code end-watermark}
 * @param tokens   the input, in file order
 */
public record WindowCase(String name, Map<String, String> settings, List<Token> tokens) {

    /** Copies the collections. */
    public WindowCase {
        settings = Map.copyOf(settings);
        tokens = List.copyOf(tokens);
    }

    /** @return the kind: {@code window} (default), {@code intervaljoin} or {@code windowjoin} */
    public String kind() {
        return settings.getOrDefault("kind", "window");
    }

    /** @return the value of a setting, if the case has it */
    public Optional<String> setting(String key) {
        return Optional.ofNullable(settings.get(key));
    }

    /**
     * @return the watermark applied after the last token: {@code Long.MAX_VALUE} for {@code max} (the default),
     *         {@code Long.MIN_VALUE} for {@code none}, else the number
     */
    public long endWatermark() {
        String v = settings.getOrDefault("end-watermark", "max").trim();
        return switch (v) {
            case "max" -> Long.MAX_VALUE;
            case "none" -> Long.MIN_VALUE;
            default -> Long.parseLong(v);
        };
    }

    /** One input token. */
    public sealed interface Token permits Element, Watermark {
    }

    /**
     * An element {@code [L:|R:]<key><value>@<ts>}.
     *
     * @param side  'L' or 'R' in join cases, ' ' otherwise
     * @param key   the key (one lowercase letter)
     * @param value the value
     * @param ts    the event time
     */
    public record Element(char side, String key, long value, long ts) implements Token {
        /** @return the token as written, e.g. {@code L:a9@1500} or {@code a3@4500} (for LATE lines) */
        public String text() {
            return (side == ' ' ? "" : side + ":") + key + value + "@" + ts;
        }
    }

    /**
     * A watermark {@code [L:|R:]wm@<ts>}.
     *
     * @param side 'L' or 'R' for one join input, ' ' for every input
     * @param ts   the watermark
     */
    public record Watermark(char side, long ts) implements Token {
    }
}

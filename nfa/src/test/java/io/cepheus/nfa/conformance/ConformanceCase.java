package io.cepheus.nfa.conformance;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One case of a {@code .case} file, as written; nothing is interpreted beyond tokenising the events.
 *
 * @param name          the case name, printed as {@code == <name>}
 * @param pattern       the pattern text (see FORMAT.md, "Pattern language")
 * @param withinMillis  the header {@code within:} (whole-pattern window), if given
 * @param skip          the {@code skip:} text, {@code "noSkip"} when absent
 * @param endWatermark  the watermark applied after the last token; empty for {@code end-watermark: none}
 * @param input         events and watermarks in input order
 */
public record ConformanceCase(String name, String pattern, OptionalLong withinMillis, String skip,
        OptionalLong endWatermark, List<InputToken> input) {

    /** Copies the input list. */
    public ConformanceCase {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(withinMillis, "withinMillis");
        Objects.requireNonNull(skip, "skip");
        Objects.requireNonNull(endWatermark, "endWatermark");
        input = List.copyOf(input);
    }
}

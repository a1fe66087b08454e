package io.cepheus.nfa.reference;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One generated example: a pattern and the stream of one key it runs over.
 *
 * @param spec   the pattern
 * @param events the events in stream order ({@code index()} = position), timestamps non-decreasing
 */
public record Scenario(RandomPatternSpec spec, List<RefEvent> events) {

    /** Copies the events. */
    public Scenario {
        events = List.copyOf(events);
    }

    /** @return the example as a conformance case, ready to paste into a {@code .case} file */
    @Override
    public String toString() {
        return "case: random\n" + spec + "\nevents: "
                + events.stream().map(RefEvent::toString).collect(Collectors.joining(" "));
    }
}

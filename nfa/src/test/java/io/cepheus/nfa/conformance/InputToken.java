package io.cepheus.nfa.conformance;

/** One token of a case's {@code events:} line: an event or a watermark, in input order. */
public sealed interface InputToken permits InputToken.Event, InputToken.Watermark {

    /** @param event an event such as {@code F4@6} */
    record Event(Ev event) implements InputToken {
    }

    /** @param time the watermark of a {@code wm@ts} / {@code watermark@ts} token */
    record Watermark(long time) implements InputToken {
    }
}

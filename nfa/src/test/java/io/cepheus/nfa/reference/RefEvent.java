package io.cepheus.nfa.reference;

/**
 * The event of the reference tests: a one-letter type, a small value, an event time and the position in the
 * stream. The position makes two otherwise equal events (same type, value and time) distinct, so that
 * matches compare by identity of the events they took.
 *
 * @param type  'A', 'B' or 'C'
 * @param value a small integer that iterative conditions compare
 * @param ts    event time in ms
 * @param index position in the stream, 0 = first
 */
public record RefEvent(char type, int value, long ts, int index) {

    /** @return the event as the conformance files write it, e.g. {@code A3@7} */
    @Override
    public String toString() {
        return type + Integer.toString(value) + "@" + ts;
    }

    /** @return the event with its stream position, e.g. {@code #2:A3@7}, unambiguous in messages */
    public String label() {
        return "#" + index + ":" + this;
    }
}

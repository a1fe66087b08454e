package io.cepheus.pattern;

/**
 * The event type the pattern-API tests build patterns over.
 *
 * @param type  a short tag such as "A" or "B"
 * @param value a number conditions can compare
 */
record TestEvent(String type, int value) {

    static TestEvent of(String type, int value) {
        return new TestEvent(type, value);
    }
}

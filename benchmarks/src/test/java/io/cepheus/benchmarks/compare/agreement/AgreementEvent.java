package io.cepheus.benchmarks.compare.agreement;

/**
 * An event of the randomized agreement tests: its key, type ({@code A}, {@code B} or {@code C}), a small value the
 * conditions compare, its position in the generated input (which identifies it in outputs) and its event time.
 *
 * @param key   the key
 * @param type  {@code 'A'}, {@code 'B'} or {@code 'C'}
 * @param value 0 to 3
 * @param id    the event's index in the case's input
 * @param ts    event time
 */
public record AgreementEvent(int key, char type, int value, int id, long ts) {

    @Override
    public String toString() {
        return "k" + key + ":" + type + value + "#" + id + "@" + ts;
    }
}

package io.cepheus.benchmarks.compare.agreement;

/**
 * An element of the randomized window agreement test: key, value, event time and an id (its position in the
 * input; concatenations of ids show which elements a result holds and in what order).
 *
 * @param key   1 to 3
 * @param value 0 to 9
 * @param ts    event time
 * @param id    the element's id, or ids joined by {@code .} in a concatenated result
 */
public record WindowElement(int key, long value, long ts, String id) {

    @Override
    public String toString() {
        return "k" + key + ":" + value + "@" + ts + "#" + id;
    }
}

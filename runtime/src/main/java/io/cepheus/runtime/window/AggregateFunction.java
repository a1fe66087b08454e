package io.cepheus.runtime.window;

/**
 * Incremental aggregation with an accumulator: a window keeps one accumulator, never its elements.
 *
 * @param <IN>  the element type
 * @param <ACC> the accumulator (may be mutable: {@link #add} and {@link #merge} may change and return their
 *              accumulator argument; {@code merge} never changes its second argument)
 * @param <OUT> the result type
 */
public interface AggregateFunction<IN, ACC, OUT> {

    /** @return a new, empty accumulator */
    ACC createAccumulator();

    /** @return the accumulator with {@code value} added */
    ACC add(IN value, ACC accumulator);

    /** @return the result for the accumulator (it stays usable afterwards) */
    OUT getResult(ACC accumulator);

    /** @return the combination of both (merging sessions, combining slices of sliding windows) */
    ACC merge(ACC a, ACC b);
}

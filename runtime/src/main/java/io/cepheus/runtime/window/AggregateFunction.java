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

    /**
     * @param value       the element to add
     * @param accumulator the window's accumulator (may be changed and returned)
     * @return the accumulator with {@code value} added
     */
    ACC add(IN value, ACC accumulator);

    /**
     * @param accumulator the window's accumulator
     * @return the result for the accumulator (it stays usable afterwards)
     */
    OUT getResult(ACC accumulator);

    /**
     * Combines two accumulators (merging sessions, combining slices of sliding windows). It may change and return
     * {@code a}, or return a new accumulator; it must not change {@code b}, nor return it: the engine keeps using
     * {@code b} (a slice shared by later windows) after the call.
     *
     * @param a the accumulator the result may be built in
     * @param b the accumulator added to it, left unchanged
     * @return the combination of both
     */
    ACC merge(ACC a, ACC b);
}

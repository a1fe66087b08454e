/**
 * Joins of two kinds of a keyed stream's events: the interval join ({@link io.cepheus.runtime.join.IntervalJoin},
 * Flink's {@code intervalJoin}, with outer sides) and the temporal, as-of join
 * ({@link io.cepheus.runtime.join.TemporalJoin}), their functions, the handlers their results and unmatched elements
 * go to, and their metrics. Entered through {@code KeyedStream.intervalJoin(...)} and
 * {@code KeyedStream.temporalJoin(...)}; window joins are in {@code io.cepheus.runtime.window}.
 */
package io.cepheus.runtime.join;

/**
 * Windows on a keyed stream, as in Apache Flink's DataStream API: the windowed stream and its results
 * ({@link io.cepheus.runtime.window.WindowedStream}, {@link io.cepheus.runtime.window.WindowResults}), assigners
 * (tumbling, sliding, session, global; event and processing time), triggers, evictors, window functions (reduce,
 * aggregate, process), accumulation modes, and window joins and coGroups
 * ({@link io.cepheus.runtime.window.JoinedStreams}, {@link io.cepheus.runtime.window.CoGroupedStreams}). Entered
 * through {@code KeyedStream.window(assigner)}, {@code KeyedStream.join(...)} and {@code KeyedStream.coGroup(...)}.
 */
package io.cepheus.runtime.window;

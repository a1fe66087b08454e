/**
 * Windows on a keyed stream, as in Apache Flink's DataStream API: assigners (tumbling, sliding, session, global;
 * event and processing time), triggers, evictors, window functions (reduce, aggregate, process), accumulation
 * modes, and the functions of window joins and coGroups. Entered through
 * {@code KeyedStream.window(assigner)}, {@code KeyedStream.join(...)} and {@code KeyedStream.coGroup(...)}.
 */
package io.cepheus.runtime.window;

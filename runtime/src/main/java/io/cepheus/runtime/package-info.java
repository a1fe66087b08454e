/**
 * The Cepheus engine: {@link io.cepheus.runtime.CepEngine}, the {@link io.cepheus.runtime.Producer}s that feed it,
 * its keyed streams and patterns, their handlers and metrics, and {@link io.cepheus.runtime.CepTestHarness}, which
 * runs the same engine on a test's thread. Windows are in {@code io.cepheus.runtime.window}, joins in
 * {@code io.cepheus.runtime.join}, time in {@code io.cepheus.runtime.time}.
 *
 * <h2>How the engine runs</h2>
 *
 * <p>The engine is a fixed set of shards. Every registered operator (a pattern, a window, a join) has an instance on
 * every shard, which sees the events of the keys that shard owns; a key always goes to the same shard (by its
 * {@code hashCode}). These rules hold throughout, and the code relies on them:
 *
 * <ul>
 *   <li><b>One writer per shard.</b> A shard and everything on it (its key dictionary, timer service, event-time
 *       buffers, operators and their per-key state) belong to one thread: the shard's worker thread after
 *       {@code start()}, or the caller's thread under a {@code CepTestHarness}. Nothing on a shard is locked or
 *       shared; other threads reach it only through its inbox.</li>
 *   <li><b>Producers and inboxes.</b> Any number of producer threads (one {@code Producer} each) offer records to the
 *       shards' inboxes: lock-free multi-producer, single-consumer queues. Each producer's records reach a shard in
 *       the order it sent them; its watermarks, idleness and snapshot barriers travel in the same queue, behind its
 *       events.</li>
 *   <li><b>Handlers run on the shard.</b> Conditions, window and join functions, and every handler (matches,
 *       timeouts, late events, results, dead letters, side outputs, the end-of-batch listener) run on the thread of
 *       the shard that owns the key. A handler shared by several shards must be thread-safe; one that blocks holds
 *       back every key of its shard.</li>
 *   <li><b>A shard's watermark</b> is the minimum over its producers' watermarks, idle and silent producers left
 *       out, and never goes back. It is applied the moment it advances, between two records of the inbox, so an
 *       event behind it in the queue is judged against it (late, or not).</li>
 *   <li><b>A watermark's steps.</b> When a shard's watermark advances: first every operator releases what the
 *       watermark allows (the events it buffered, in timestamp order); then the shard's event-time timers that came
 *       due fire once, in time order, each to its operator; then every operator settles what the watermark and its
 *       timers changed (expiries, freed keys). Operators sharing the timer service thus all see one consistent
 *       time.</li>
 *   <li><b>Batches.</b> A worker drains up to a batch of records per duty cycle, fires the processing-time timers
 *       that came due, then ends the batch: counters are published for readers on other threads
 *       ({@code engine.metrics()}, each stream's {@code metrics()}), the end-of-batch listener runs, and what user
 *       code threw during the batch goes to the error handler. State is always consistent at a batch's end; that is
 *       where snapshots are cut.</li>
 *   <li><b>Configuration, then run.</b> Keys, patterns, windows, joins, handlers and producers are set on the thread
 *       that builds the engine, before {@code start()}; after it they are fixed.</li>
 * </ul>
 */
package io.cepheus.runtime;

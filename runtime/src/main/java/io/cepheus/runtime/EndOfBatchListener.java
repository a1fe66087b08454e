package io.cepheus.runtime;

/**
 * Told when a shard has finished a batch: every record it drained from its inbox in one duty cycle (and every
 * processing-time timer that came due) has been processed, and the handlers have received all it produced. A
 * handler that buffers its output (a file, a socket, a message producer) can flush here, once per batch instead
 * of once per match, as a consumer of the LMAX Disruptor does on its end-of-batch flag.
 *
 * <p>Called on the shard's worker thread, so a listener shared by several shards sees calls from several threads;
 * it is called after each batch that processed something, and once more after the final watermark when the
 * engine closes. An exception from it is a failure of user code ({@link UserCodeException}, function
 * "end-of-batch listener"), handled by the engine's error handler.
 */
@FunctionalInterface
public interface EndOfBatchListener {
    /**
     * @param shard   the shard's number, 0 .. shards - 1
     * @param records records and timers processed in the batch (0 for the final flush on close)
     */
    void onEndOfBatch(int shard, int records);
}

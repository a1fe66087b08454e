package io.cepheus.runtime.internal.shard;

import io.cepheus.runtime.internal.cep.SharedEventBuffer;
import io.cepheus.runtime.internal.timer.TimerService;
import io.cepheus.runtime.time.Clock;
import java.util.Comparator;

/**
 * What an operator may use of the shard it runs on: the key dictionary and timer service every operator of the
 * shard shares, the shard's watermark and processing-time clock, and where user-code failures are reported.
 * Everything here belongs to the shard's thread; the operator keeps what it needs when it is created.
 *
 * @param <T> the engine's event type
 */
public interface ShardContext<T> {

    /** @return the shard's number, for names and messages */
    int index();

    /** @return the key dictionary shared by the shard's operators */
    KeyDictionary keys();

    /** @return the timer service shared by the shard's operators */
    TimerService timers();

    /** @return the shard's current watermark */
    long watermark();

    /** @return the engine's processing-time clock */
    Clock clock();

    /**
     * @return where the operator reports what user code threw, when its stream has no dead-letter handler; the
     *         shard hands it to the engine's error handler at the end of the batch
     */
    UserFailures failures();

    /**
     * @param tieBreaker how the patterns order events of equal timestamp (null: arrival order only)
     * @return the event-time buffer the shard's patterns with this tie-breaker share
     */
    SharedEventBuffer<T> patternBuffer(Comparator<? super T> tieBreaker);
}

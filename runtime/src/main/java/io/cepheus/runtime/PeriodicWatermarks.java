package io.cepheus.runtime;

import io.cepheus.runtime.internal.agent.Agent;
import io.cepheus.runtime.internal.queue.ShardInbox;
import io.cepheus.runtime.internal.shard.ShardRecord;
import io.cepheus.runtime.time.Clock;
import java.util.List;

/**
 * The engine's schedule of periodic watermarks (Flink's auto-watermark interval): each duty cycle reads the
 * engine's clock and runs the periodic emit of every producer whose interval has passed and which is in no call
 * of its own, so a quiet source's clock-driven generator still advances event time or marks the source idle.
 * A producer in a call is skipped; its call emits if due.
 *
 * <p>An emit puts a record into every shard's inbox, so it runs only when every inbox has room: a duty cycle must
 * not wait on a shard that is behind (the emit comes at a later cycle instead). With other producers on their
 * own threads an inbox may still fill up between that check and the emit, which then waits as a producer does.
 *
 * <p>Owned by one thread: its runner's in an engine, the caller's under a {@link CepTestHarness}.
 *
 * @param <T> the event type
 */
final class PeriodicWatermarks<T> implements Agent {

    private final List<Producer<T>> producers;
    private final Clock clock;
    private final ShardInbox<ShardRecord>[] inboxes;

    PeriodicWatermarks(List<Producer<T>> producers, Clock clock, ShardInbox<ShardRecord>[] inboxes) {
        this.producers = List.copyOf(producers);
        this.clock = clock;
        this.inboxes = inboxes;
    }

    @Override
    public int doWork() {
        if (inboxes[0].isClosed()) {
            return 0; // the engine is closing or stopped: the producers' final watermarks are their own
        }
        long now = clock.millis();
        int emitted = 0;
        for (int p = 0; p < producers.size(); p++) {
            Producer<T> producer = producers.get(p);
            if (producer.periodicEmitDue(now) && roomInEveryInbox()) {
                emitted += producer.emitPeriodicOnSchedule(now);
            }
        }
        return emitted;
    }

    private boolean roomInEveryInbox() {
        for (ShardInbox<ShardRecord> inbox : inboxes) {
            if (inbox.size() >= inbox.capacity()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String roleName() {
        return "cepheus-watermarks";
    }
}

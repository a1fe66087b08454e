package io.cepheus.nfa.conformance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * The event-time front of Flink's {@code CepOperator}, without the NFA: events wait in a buffer until a
 * watermark passes them, are then handed on in timestamp order (equal timestamps in arrival order), and
 * after them the watermark itself. An event whose timestamp is not after the current watermark is late and
 * never handed on.
 *
 * <p>Watermarks never go back: one at or below the current watermark is ignored, as Flink's input valve
 * drops it.
 */
public final class EventTimeFeeder {

    /** Receives what the feeder releases, in order. */
    public interface Target {
        /** @param event an on-time event, released because a watermark passed it */
        void process(Ev event);

        /** @param watermark the watermark, after every event it released */
        void advanceTo(long watermark);

        /** @param event an event at or before the watermark when it arrived */
        void late(Ev event);
    }

    private static final Comparator<Ev> BY_TIME = Comparator.comparingLong(Ev::ts);

    private final Target target;
    private final List<Ev> buffer = new ArrayList<>();
    private long watermark = Long.MIN_VALUE;

    /** @param target receives the released events and watermarks */
    public EventTimeFeeder(Target target) {
        this.target = target;
    }

    /** @param event the next event in arrival order; buffered, or reported late */
    public void event(Ev event) {
        if (event.ts() <= watermark) {
            target.late(event);
        } else {
            buffer.add(event);
        }
    }

    /**
     * Releases every buffered event with {@code ts <= time} in time order, then the watermark.
     *
     * @param time the watermark
     */
    public void watermark(long time) {
        if (time <= watermark) {
            return;
        }
        watermark = time;
        List<Ev> due = new ArrayList<>();
        for (Iterator<Ev> it = buffer.iterator(); it.hasNext();) {
            Ev e = it.next();
            if (e.ts() <= time) {
                due.add(e);
                it.remove();
            }
        }
        due.sort(BY_TIME); // List.sort is stable: equal timestamps keep arrival order
        for (Ev e : due) {
            target.process(e);
        }
        target.advanceTo(time);
    }

    /** @return the current watermark, {@code Long.MIN_VALUE} before the first */
    public long currentWatermark() {
        return watermark;
    }

    /** @return events waiting for a watermark */
    public int buffered() {
        return buffer.size();
    }
}

package io.cepheus.benchmarks.compare.agreement;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.KeyedStream;
import io.cepheus.runtime.PatternStream;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.UserCodeException;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Replays a {@link RandomCepCase} through a Cepheus engine under {@link CepTestHarness}: all patterns on one keyed
 * stream, the case's shards and batch size, one producer sending the events and watermarks in order, the harness
 * draining after every item, after a random third of them, or only at the end. Used on the test's thread only.
 */
final class CepheusCepReplay {

    private CepheusCepReplay() {
    }

    /** @return the outputs of all patterns, late events included */
    static List<CepOutput> run(RandomCepCase c) {
        return run(c, false, -1, false);
    }

    /**
     * As {@link #run(RandomCepCase)}, each pattern written as a JSON rule and read back ({@link
     * RandomPattern#cepheusAsRule()}).
     *
     * @return the outputs of all patterns
     */
    static List<CepOutput> runAsRules(RandomCepCase c) {
        return run(c, false, -1, true);
    }

    /**
     * Processing time: every pattern {@code inProcessingTime()}, the engine's manual clock moved to each item's
     * {@link RandomCepCase#processingTimes() processing time} (and the shards run) before the item is sent; a
     * watermark item only moves the clock.
     *
     * @return the outputs of all patterns
     */
    static List<CepOutput> runInProcessingTime(RandomCepCase c) {
        return run(c, true, -1, false);
    }

    /**
     * Event time, interrupted: after the first {@code cut} input items the engine is drained and snapshotted, and
     * a fresh engine restored from the snapshot takes the rest.
     *
     * @return the outputs of both engines, which should be those of an uninterrupted run
     */
    static List<CepOutput> runRestoredAt(RandomCepCase c, int cut) {
        return run(c, false, cut, false);
    }

    private static List<CepOutput> run(RandomCepCase c, boolean processingTime, int cut, boolean asRules) {
        List<CepOutput> outputs = new ArrayList<>();
        int[] counted = {0};
        ManualClock clock = new ManualClock(0);
        Random drains = new Random(c.seed() * 31 + 7);
        long[] times = c.processingTimes();
        try {
            CepEngine<AgreementEvent> engine = engine(c, processingTime, clock, outputs, counted, asRules);
            Producer<AgreementEvent> producer = engine.newProducer();
            CepTestHarness<AgreementEvent> harness = CepTestHarness.start(engine);
            if (cut >= 0) {
                feed(c, 0, cut, processingTime, times, clock, producer, harness, drains);
                harness.runUntilIdle(); // a snapshot is taken between batches
                byte[] snapshot = ReplaySnapshots.snapshot(harness, EVENTS, ReplaySnapshots.INT_KEYS);
                CepEngine<AgreementEvent> restored = engine(c, processingTime, clock, outputs, counted, asRules);
                producer = restored.newProducer();
                harness = ReplaySnapshots.restore(restored, snapshot, EVENTS, ReplaySnapshots.INT_KEYS);
                feed(c, cut, c.input().size(), processingTime, times, clock, producer, harness, drains);
            } else {
                feed(c, 0, c.input().size(), processingTime, times, clock, producer, harness, drains);
            }
            harness.runUntilIdle();
            harness.close();
        } catch (UserCodeException e) {
            if (e.getCause() instanceof FlinkCepReplay.TooManyOutputs tooMany) {
                throw tooMany; // thrown by a handler: the engine reports it as the handler's failure
            }
            throw e;
        }
        return outputs;
    }

    private static CepEngine<AgreementEvent> engine(RandomCepCase c, boolean processingTime, ManualClock clock,
            List<CepOutput> outputs, int[] counted, boolean asRules) {
        CepEngine<AgreementEvent> engine = CepEngine.<AgreementEvent>builder().shards(c.shards()).batchSize(c.batch())
                .clock(clock)
                .watermarks(WatermarkStrategy.<AgreementEvent>noWatermarks().withTimestampAssigner((e, t) -> e.ts()))
                .snapshots(EVENTS, ReplaySnapshots.INT_KEYS).build();
        KeyedStream<AgreementEvent> keyed = engine.keyBy(AgreementEvent::key);
        for (int p = 0; p < c.patterns().size(); p++) {
            int pattern = p;
            RandomPattern spec = c.patterns().get(p);
            io.cepheus.pattern.Pattern<AgreementEvent> built = asRules ? spec.cepheusAsRule() : spec.cepheus();
            PatternStream<AgreementEvent> stream = spec.byValue()
                    ? keyed.pattern(built, Comparator.comparingInt(AgreementEvent::value))
                    : keyed.pattern(built);
            if (processingTime) {
                stream.inProcessingTime();
            }
            stream.select((key, match, ts) -> add(outputs, counted, new CepOutput(pattern, (Integer) key,
                    CepOutput.Kind.MATCH, CepOutput.body(match.asMap()), ts, 0)));
            if (c.timeouts()) {
                stream.timeouts((key, match, ts) -> add(outputs, counted, new CepOutput(pattern, (Integer) key,
                        CepOutput.Kind.TIMEOUT, CepOutput.body(match.asMap()), ts, 0)));
            }
            stream.lateEvents((key, event, ts) -> outputs.add(new CepOutput(pattern, (Integer) key,
                    CepOutput.Kind.LATE, Integer.toString(event.id()), ts, 0)));
        }
        return engine;
    }

    private static void feed(RandomCepCase c, int from, int to, boolean processingTime, long[] times,
            ManualClock clock, Producer<AgreementEvent> producer, CepTestHarness<AgreementEvent> harness,
            Random drains) {
        for (int i = from; i < to; i++) {
            RandomCepCase.Item item = c.input().get(i);
            if (processingTime) {
                while (clock.millis() < times[i]) { // every millisecond, as a real clock passes them; what is due
                    clock.advance(1);               // then fires before the item arrives, as in Flink's harness
                    harness.runUntilIdle();
                }
                if (item.isWatermark()) {
                    continue;
                }
            }
            if (item.isWatermark()) {
                producer.watermark(item.watermark());
            } else {
                producer.send(item.event());
            }
            if (processingTime || c.drain() == 0 || c.drain() == 1 && drains.nextInt(3) == 0) {
                harness.runUntilIdle();
            }
        }
    }

    /** Adds a match or timeout; they count toward the limit, as on Flink's side (late events do not). */
    private static void add(List<CepOutput> outputs, int[] counted, CepOutput output) {
        outputs.add(output);
        if (++counted[0] > FlinkCepReplay.MAX_OUTPUTS) {
            throw new FlinkCepReplay.TooManyOutputs();
        }
    }

    private static final EventCodec<AgreementEvent> EVENTS = new EventCodec<>() {
        @Override
        public void write(AgreementEvent e, DataOutput out) throws IOException {
            out.writeInt(e.key());
            out.writeChar(e.type());
            out.writeInt(e.value());
            out.writeInt(e.id());
            out.writeLong(e.ts());
        }

        @Override
        public AgreementEvent read(DataInput in) throws IOException {
            return new AgreementEvent(in.readInt(), in.readChar(), in.readInt(), in.readInt(), in.readLong());
        }
    };
}

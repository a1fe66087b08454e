package io.cepheus.runtime.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.UserCodeException;
import io.cepheus.runtime.agent.ErrorAction;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A window function or result handler that throws for one key: under log-and-continue the other keys' windows
 * still fire at the same watermark, the failure is reported naming the function, and no window state outlives
 * its cleanup time. Run on each of the three window operators (shared slices, sessions, the general one).
 */
class WindowUserFailuresTest {

    /** Which operator the configuration lands on. */
    enum Shape {
        TUMBLING_SLICES(s -> s),
        SLIDING_SLICES(s -> s),
        SESSIONS(s -> s),
        GENERAL_WITH_EVICTOR(s -> s.evictor(CountEvictor.of(100)));

        final UnaryOperator<WindowedStream<Ev>> extra;

        Shape(UnaryOperator<WindowedStream<Ev>> extra) {
            this.extra = extra;
        }

        WindowAssigner<Ev> assigner() {
            return switch (this) {
                case SLIDING_SLICES -> SlidingEventTimeWindows.of(Duration.ofSeconds(10), Duration.ofSeconds(5));
                case SESSIONS -> EventTimeSessionWindows.withGap(Duration.ofSeconds(10));
                default -> TumblingEventTimeWindows.of(Duration.ofSeconds(10));
            };
        }
    }

    /** Sums values; its result throws for a sum of 13, the value only key "bad" sends. */
    private static final class SumFailingOn13 implements AggregateFunction<Ev, long[], Long> {
        @Override
        public long[] createAccumulator() {
            return new long[1];
        }

        @Override
        public long[] add(Ev value, long[] acc) {
            acc[0] += value.value();
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            if (acc[0] == 13) {
                throw new IllegalStateException("13 is unlucky");
            }
            return acc[0];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            a[0] += b[0];
            return a;
        }
    }

    private static final class Errors implements io.cepheus.runtime.agent.ErrorHandler {
        final List<Throwable> seen = new ArrayList<>();

        @Override
        public ErrorAction onError(String roleName, Throwable error) {
            seen.add(error);
            return ErrorAction.CONTINUE;
        }
    }

    private static CepEngine<Ev> engine(Errors errors) {
        return CepEngine.<Ev>builder().shards(1).clock(new ManualClock()).errorHandler(errors)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts())).build();
    }

    @ParameterizedTest
    @EnumSource(Shape.class)
    void aWindowFunctionThatThrowsForOneKeyLeavesTheOthersFiringAndNoStateBehind(Shape shape) {
        Errors errors = new Errors();
        CepEngine<Ev> engine = engine(errors);
        List<String> out = new ArrayList<>();
        WindowResults<Long> results = shape.extra.apply(engine.keyBy(Ev::key).window(shape.assigner()))
                .aggregate(new SumFailingOn13())
                .results((k, w, r, ts) -> out.add(k + " " + r));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("bad", 13, 1_000));
        in.send(new Ev("good", 2, 1_500));
        in.watermark(100_000);
        h.runUntilIdle();

        assertEquals(List.of("good 2"), distinct(out), shape + ": the good key fired after the bad one threw");
        assertEquals(1, errors.seen.size(), "one report per batch (sliding: the second window's failure attached)");
        UserCodeException failure = assertInstanceOf(UserCodeException.class, errors.seen.get(0));
        assertEquals("window function", failure.function());
        assertEquals("window 0", failure.operator());
        assertEquals("bad", failure.key());
        assertEquals("13 is unlucky", failure.getCause().getMessage());
        WindowMetrics m = results.metrics();
        assertEquals(0, m.windows(), shape + ": windows");
        assertEquals(0, m.accumulators(), shape + ": accumulators");
        assertEquals(0, m.timers(), shape + ": timers");
        assertEquals(0, engine.metrics().shards().get(0).keys(), shape + ": keys released");
        h.close();
    }

    @ParameterizedTest
    @EnumSource(Shape.class)
    void aResultHandlerThatThrowsForOneKeyLeavesTheOthersFiringAndNoStateBehind(Shape shape) {
        Errors errors = new Errors();
        CepEngine<Ev> engine = engine(errors);
        List<String> out = new ArrayList<>();
        WindowResults<Long> results = shape.extra.apply(engine.keyBy(Ev::key).window(shape.assigner()))
                .aggregate(new SumFailingOn13())
                .results((k, w, r, ts) -> {
                    if (k.equals("bad")) {
                        throw new IllegalArgumentException("handler bug");
                    }
                    out.add(k + " " + r);
                });
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        in.send(new Ev("bad", 1, 1_000));
        in.send(new Ev("good", 2, 1_500));
        in.watermark(100_000);
        h.runUntilIdle();

        assertEquals(List.of("good 2"), distinct(out), shape.toString());
        UserCodeException failure = assertInstanceOf(UserCodeException.class, errors.seen.get(0));
        assertEquals("result handler", failure.function());
        assertEquals("bad", failure.key());
        assertEquals(0, results.metrics().windows(), shape + ": windows");
        assertEquals(0, engine.metrics().shards().get(0).keys(), shape + ": keys released");
        h.close();
    }

    /** Sliding windows emit the same sum once per window the element is in; the test cares about which keys. */
    private static List<String> distinct(List<String> lines) {
        return lines.stream().distinct().toList();
    }
}

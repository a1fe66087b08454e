package io.cepheus.runtime.window;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;

/**
 * What the window example tests share: an element, a one-shard engine on a manual clock that takes timestamps
 * from the elements and does not flush on close, and a summing reduce and aggregate.
 */
final class WindowTestKit {

    private WindowTestKit() {
    }

    /** An element: its key, a value to aggregate, its event time. */
    record Ev(String key, long value, long ts) {
    }

    static CepEngine<Ev> engine(ManualClock clock) {
        return CepEngine.<Ev>builder().shards(1).flushOnClose(false).clock(clock)
                .watermarks(WatermarkStrategy.<Ev>noWatermarks().withTimestampAssigner((e, r) -> e.ts())).build();
    }

    static CepEngine<Ev> engine() {
        return engine(new ManualClock());
    }

    static ReduceFunction<Ev> summing() {
        return (a, b) -> new Ev(a.key(), a.value() + b.value(), a.ts());
    }

    /** @return a sum as an aggregate with a mutable accumulator (the general operator keeps one per window) */
    static AggregateFunction<Ev, long[], Long> summingAggregate() {
        return new AggregateFunction<>() {
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
                return acc[0];
            }

            @Override
            public long[] merge(long[] a, long[] b) {
                a[0] += b[0];
                return a;
            }
        };
    }
}

package io.cepheus.runtime.window;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.time.ManualClock;
import io.cepheus.runtime.time.WatermarkStrategy;

/**
 * What the window example tests share: an element, a one-shard engine on a manual clock that takes timestamps
 * from the elements and does not flush on close, and a summing reduce.
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
}

package io.cepheus.benchmarks.compare.agreement;

/**
 * Count and sum of a window's values, as an aggregate function of both engines (their interfaces have the same
 * four methods), so both sides run the very same code.
 */
final class CountSum implements io.cepheus.runtime.window.AggregateFunction<WindowElement, long[], String>,
        org.apache.flink.api.common.functions.AggregateFunction<WindowElement, long[], String> {

    private static final long serialVersionUID = 1L;

    @Override
    public long[] createAccumulator() {
        return new long[2];
    }

    @Override
    public long[] add(WindowElement v, long[] acc) {
        acc[0]++;
        acc[1] += v.value();
        return acc;
    }

    @Override
    public String getResult(long[] acc) {
        return acc[0] + "/" + acc[1];
    }

    @Override
    public long[] merge(long[] a, long[] b) {
        a[0] += b[0];
        a[1] += b[1];
        return a;
    }
}

package io.cepheus.benchmarks.compare;

import java.util.List;
import java.util.Locale;

/** Builds the interval-join row of the comparison: {@link JoinInput}, Cepheus's engine against Flink's operator. */
public final class JoinComparisons {

    private JoinComparisons() {
    }

    /**
     * @param input the generated orders and payments (generated once; every run reads them)
     * @return the comparison (the engines must agree; no published figure applies to this generated stream)
     */
    public static Comparison of(JoinInput input) {
        int orders = (int) java.util.Arrays.stream(input.elements()).filter(e -> e instanceof JoinEvent.Order)
                .count();
        String note = String.format(Locale.ROOT, "%s%,d orders + %,d payments, 10,000 keys, R = 5 min",
                input.prefix() ? "PREFIX: " : "", orders, input.elements().length - orders);
        if (input.seed() != JoinInput.DEFAULT_SEED) {
            note += ", seed " + input.seed();
        }
        return new Comparison("interval join", input.elements().length, note, ResultKind.JOIN,
                List.of(new CepheusIntervalJoinContender(input)), new FlinkIntervalJoinContender(input), false,
                result -> List.of());
    }
}

package io.cepheus.runtime.internal.cep;

import io.cepheus.pattern.FieldRequirement;
import java.util.List;

/** Events with a type, a value and a country, and the requirements on them that tests of the index and gate name. */
final class IndexedEvents {

    private IndexedEvents() {
    }

    record Ev(char type, double value, String country) {
    }

    static FieldRequirement<Ev> type(char... types) {
        double[] values = new double[types.length];
        for (int i = 0; i < types.length; i++) {
            values[i] = types[i];
        }
        return FieldRequirement.numberOneOf("type", Ev::type, values);
    }

    static FieldRequirement<Ev> value(double... values) {
        return FieldRequirement.numberOneOf("value", Ev::value, values);
    }

    static FieldRequirement<Ev> valueAtLeast(double min) {
        return FieldRequirement.numberBetween("value", Ev::value, min, Double.POSITIVE_INFINITY);
    }

    static FieldRequirement<Ev> country(String... countries) {
        return FieldRequirement.textOneOf("country", Ev::country, List.of(countries));
    }
}

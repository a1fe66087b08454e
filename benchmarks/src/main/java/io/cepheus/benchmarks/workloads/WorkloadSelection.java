package io.cepheus.benchmarks.workloads;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/** Parses the workload names given on a command line ({@code W1 W3}, {@code w4}); none means all four. */
public final class WorkloadSelection {

    private WorkloadSelection() {
    }

    public static List<Workload> parse(List<String> names) {
        if (names.isEmpty()) {
            return List.of(Workload.values());
        }
        EnumSet<Workload> chosen = EnumSet.noneOf(Workload.class);
        for (String name : names) {
            try {
                chosen.add(Workload.valueOf(name.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown workload '" + name + "'; known: W1 W2 W3 W4", e);
            }
        }
        return new ArrayList<>(chosen);
    }
}

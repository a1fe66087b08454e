package io.cepheus.runtime.internal.cep;

import io.cepheus.pattern.Condition;
import io.cepheus.pattern.FieldRequirement;
import io.cepheus.pattern.IndexableCondition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Whether an event may meet one of a rule version's ways (to begin a partial match, or to change a waiting one),
 * judged from the fields {@link EventFields} read: a way passes unless a requirement of one of its conditions fails
 * on a value that was read. Checking costs a few comparisons on values already read, so a version an event cannot
 * affect is not touched at all; the version's matcher stays the judge of every event that passes.
 *
 * <p>Immutable once built; used by the shard's worker thread.
 */
final class WayChecks {

    /** Ways of which one may always be met (a way without requirements). */
    static final WayChecks ALWAYS = new WayChecks(null);
    /** No way at all: nothing can be met. */
    static final WayChecks NEVER = new WayChecks(new Check[0][]);

    /** One array of checks per way; null: always passes. */
    private final Check[][] ways;

    private WayChecks(Check[][] ways) {
        this.ways = ways;
    }

    /**
     * @param ways   the ways, each as conditions that must all hold
     * @param fields where the requirements' fields are registered
     * @param <T>    the event type
     * @return the checks; {@link #ALWAYS} if a way has no requirement
     */
    static <T> WayChecks of(List<List<Condition<T>>> ways, EventFields<T> fields) {
        List<Check[]> out = new ArrayList<>();
        for (List<Condition<T>> way : ways) {
            List<Check> checks = new ArrayList<>();
            for (FieldRequirement<T> r : requirements(way)) {
                checks.add(new Check(fields.slotOf(r), r));
            }
            if (checks.isEmpty()) {
                return ALWAYS;
            }
            out.add(checks.toArray(new Check[0]));
        }
        return out.isEmpty() ? NEVER : new WayChecks(out.toArray(new Check[0][]));
    }

    /** @return the requirements the conditions of a way state */
    static <T> List<FieldRequirement<T>> requirements(List<Condition<T>> way) {
        List<FieldRequirement<T>> rs = new ArrayList<>();
        for (Condition<T> c : way) {
            if (c instanceof IndexableCondition<T> ic) {
                rs.addAll(ic.requirements());
            }
        }
        return rs;
    }

    /** @return whether the event whose fields were read last may meet one of the ways */
    boolean anyPasses(EventFields<?> fields) {
        Check[][] ws = ways;
        if (ws == null) {
            return true;
        }
        for (Check[] way : ws) {
            if (allPass(way, fields)) {
                return true;
            }
        }
        return false;
    }

    private static boolean allPass(Check[] way, EventFields<?> fields) {
        for (Check c : way) {
            if (!c.passes(fields)) {
                return false;
            }
        }
        return true;
    }

    /** One requirement, on a field's slot. */
    private static final class Check {
        private final int slot;
        private final FieldRequirement.Kind kind;
        private final double[] sorted;
        private final double min;
        private final double max;
        private final Set<String> texts;

        Check(int slot, FieldRequirement<?> r) {
            this.slot = slot;
            this.kind = r.kind();
            double[] values = r.numbers();
            for (int i = 0; i < values.length; i++) {
                values[i] += 0.0; // -0.0 and 0.0 are one value
            }
            Arrays.sort(values);
            this.sorted = values;
            this.min = r.min();
            this.max = r.max();
            this.texts = Set.copyOf(r.texts());
        }

        /** A value the reader could not place (NaN, null) passes: the condition will tell. */
        boolean passes(EventFields<?> fields) {
            switch (kind) {
                case NUMBER_BETWEEN: {
                    double x = fields.number(slot);
                    return x != x || (x >= min && x <= max);
                }
                case NUMBER_ONE_OF: {
                    double x = fields.number(slot);
                    if (x != x) {
                        return true;
                    }
                    x += 0.0;
                    double[] s = sorted;
                    if (s.length <= 8) {
                        for (double v : s) {
                            if (v == x) {
                                return true;
                            }
                        }
                        return false;
                    }
                    return Arrays.binarySearch(s, x) >= 0;
                }
                default: {
                    String s = fields.text(slot);
                    return s == null || texts.contains(s);
                }
            }
        }
    }
}

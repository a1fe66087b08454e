package io.cepheus.runtime.internal.cep;

import io.cepheus.pattern.FieldRequirement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Recent values of the fields a rule set's requirements name, so that {@link ConditionIndex} indexes each way under
 * the requirement that lets the fewest events through as measured on the stream, where counting rules can only
 * guess: one rule {@code type == 'A' && merchant == 7} is best looked up by its merchant, not by a type that a
 * quarter of the stream has, and nothing in the rule says which is which. Query planners keep column statistics
 * for the same choice.
 *
 * <p>About one event in {@value #EVERY} is sampled, at pseudo-random gaps of 1 to {@code 2 * EVERY - 1} events (a
 * fixed gap would alias with a stream that cycles through its types), and each field keeps its last {@value #SIZE}
 * values. Samples are
 * kept by field name, so they outlive the index's rebuilds; a field new to the rule set starts with none. The plan
 * only decides how fast the index is, never what it lets through: every way found is checked against all its
 * requirements.
 *
 * <p>Owned by the shard's worker thread, like the {@link ConditionIndex} that holds it.
 */
final class FieldSamples {

    /** The values kept per field. */
    static final int SIZE = 64;
    /** About one event in this many is sampled. */
    static final int EVERY = 4;

    private final Map<String, Ring> numbers = new HashMap<>();
    private final Map<String, Ring> texts = new HashMap<>();
    private Ring[] numberRings = new Ring[0];
    private Ring[] textRings = new Ring[0];
    private int untilNext = EVERY;
    /** The xorshift state that spaces the samples. */
    private int gaps = 0x9E3779B9;

    /** The recent values of one field. */
    private static final class Ring {
        final double[] numbers;
        final String[] texts;
        /** How many values were ever added (the ring holds the last {@link #SIZE}). */
        long added;

        Ring(boolean text) {
            numbers = text ? null : new double[SIZE];
            texts = text ? new String[SIZE] : null;
        }

        boolean full() {
            return added >= SIZE;
        }
    }

    /**
     * Names the fields read from now on, by slot (after the index is rebuilt).
     *
     * @param numberFields the numeric fields' names, by slot
     * @param textFields   the text fields' names, by slot
     */
    void bind(List<String> numberFields, List<String> textFields) {
        numberRings = new Ring[numberFields.size()];
        for (int i = 0; i < numberRings.length; i++) {
            numberRings[i] = numbers.computeIfAbsent(numberFields.get(i), k -> new Ring(false));
        }
        textRings = new Ring[textFields.size()];
        for (int i = 0; i < textRings.length; i++) {
            textRings[i] = texts.computeIfAbsent(textFields.get(i), k -> new Ring(true));
        }
    }

    /**
     * Offers the values read from an event, by slot; about one offer in {@value #EVERY} is kept.
     *
     * @return whether some field's sample has just become full (a plan made before can now be made on it)
     */
    boolean offer(double[] numberValues, String[] textValues) {
        return --untilNext == 0 && take(numberValues, textValues); // kept small: inlined into every event's read
    }

    private boolean take(double[] numberValues, String[] textValues) {
        gaps ^= gaps << 13;
        gaps ^= gaps >>> 17;
        gaps ^= gaps << 5;
        untilNext = 1 + (gaps >>> 1) % (2 * EVERY - 1);
        boolean filled = false;
        for (int i = 0; i < numberRings.length; i++) {
            Ring r = numberRings[i];
            r.numbers[(int) (r.added++ % SIZE)] = numberValues[i];
            filled |= r.added == SIZE;
        }
        for (int i = 0; i < textRings.length; i++) {
            Ring r = textRings[i];
            r.texts[(int) (r.added++ % SIZE)] = textValues[i];
            filled |= r.added == SIZE;
        }
        return filled;
    }

    /**
     * @return the share of sampled events whose value would reach a way indexed under {@code r} (a value the
     *         field's reader could not place reaches every way on the field), or NaN if the field's sample is not
     *         full yet
     */
    double shareReached(FieldRequirement<?> r) {
        if (r.kind() == FieldRequirement.Kind.TEXT_ONE_OF) {
            Ring ring = texts.get(r.field());
            if (ring == null || !ring.full()) {
                return Double.NaN;
            }
            List<String> values = r.texts();
            int reached = 0;
            for (String s : ring.texts) {
                reached += s == null || values.contains(s) ? 1 : 0;
            }
            return reached / (double) SIZE;
        }
        Ring ring = numbers.get(r.field());
        if (ring == null || !ring.full()) {
            return Double.NaN;
        }
        double[] values = r.numbers();
        int reached = 0;
        for (double x : ring.numbers) {
            reached += x != x || reaches(r, values, x) ? 1 : 0;
        }
        return reached / (double) SIZE;
    }

    private static boolean reaches(FieldRequirement<?> r, double[] values, double x) {
        if (r.kind() == FieldRequirement.Kind.NUMBER_BETWEEN) {
            return x >= r.min() && x <= r.max();
        }
        for (double v : values) {
            if (v == x) {
                return true;
            }
        }
        return false;
    }
}

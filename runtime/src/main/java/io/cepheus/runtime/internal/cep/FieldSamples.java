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
 * <p>Events are sampled at pseudo-random gaps (a fixed gap would alias with a stream that cycles through its types):
 * of 1 to {@value #FILLING_GAP} events while some field's sample is not full, so that a plan is soon made on it,
 * then of 1 to {@value #KEEPING_GAP}, which keeps the samples recent for the plans that rule changes make (sampling
 * every fourth event throughout costs 2-3% at ten rules; these gaps cost too little to measure). Each field keeps
 * its last {@value #SIZE} values. Samples are kept by field name, so they outlive the index's rebuilds; a field new
 * to the rule set starts with none. The plan only decides how fast the index is, never what it lets through: every
 * way found is checked against all its requirements.
 *
 * <p>Owned by the shard's worker thread, like the {@link ConditionIndex} that holds it.
 */
final class FieldSamples {

    /** The values kept per field (a power of two). */
    static final int SIZE = 64;
    /** The longest gap between samples while a field's sample fills (a power of two). */
    static final int FILLING_GAP = 8;
    /** The longest gap between samples once every field's sample is full (a power of two). */
    static final int KEEPING_GAP = 64;

    private final Map<String, Ring> numbers = new HashMap<>();
    private final Map<String, Ring> texts = new HashMap<>();
    private Ring[] numberRings = new Ring[0];
    private Ring[] textRings = new Ring[0];
    private int untilNext = 1;
    /** The xorshift state that spaces the samples. */
    private int gaps = 0x9E3779B9;
    /** The shift that turns the state into a gap: of 1 to {@link #FILLING_GAP} or to {@link #KEEPING_GAP}. */
    private int gapShift = Integer.numberOfLeadingZeros(FILLING_GAP - 1);

    /** The recent values of one field. */
    private static final class Ring {
        final double[] numbers;
        final String[] texts;
        /** Where the next value goes. */
        int next;
        /** Whether {@link #SIZE} values were added. */
        boolean full;

        Ring(boolean text) {
            numbers = text ? null : new double[SIZE];
            texts = text ? new String[SIZE] : null;
        }

        /** @return whether this addition (made at {@link #next}) filled the ring for the first time */
        boolean added() {
            next = (next + 1) & (SIZE - 1);
            if (next == 0 && !full) {
                full = true;
                return true;
            }
            return false;
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
     * Offers the values read from an event, by slot; some are kept (see the class comment).
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
        untilNext = 1 + (gaps >>> gapShift);
        boolean filled = false;
        boolean allFull = true;
        for (int i = 0; i < numberRings.length; i++) {
            Ring r = numberRings[i];
            r.numbers[r.next] = numberValues[i];
            filled |= r.added();
            allFull &= r.full;
        }
        for (int i = 0; i < textRings.length; i++) {
            Ring r = textRings[i];
            r.texts[r.next] = textValues[i];
            filled |= r.added();
            allFull &= r.full;
        }
        gapShift = Integer.numberOfLeadingZeros((allFull ? KEEPING_GAP : FILLING_GAP) - 1);
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
            if (ring == null || !ring.full) {
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
        if (ring == null || !ring.full) {
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

package io.cepheus.runtime.internal.time;

import java.util.Arrays;

/**
 * Combines the watermarks of several inputs (the producers feeding one shard) into the one watermark of their
 * consumer.
 *
 * <p>Design: the combined watermark is the minimum over the <em>active</em> inputs' watermarks, made monotone:
 * it only ever increases and is reported only when it does. This is Flink's {@code CombinedWatermarkStatus}
 * (how a source combines its splits), chosen over {@code StatusWatermarkValve} (how a task combines its input
 * channels) because a shard's producers play the part of splits:
 * <ul>
 *   <li>An input's watermark never goes backwards: a lower one than it already sent is ignored.</li>
 *   <li>An idle input is left out of the minimum, so a silent producer does not hold event time back.</li>
 *   <li>When every input is idle the output stays where it is. (Flink's {@code StatusWatermarkValve} would
 *       instead jump to the largest watermark of all inputs; not doing so means a producer that was merely
 *       quiet can resume without its next events being made late by its faster peers.) The output moves again
 *       as soon as an input is active: to that input's watermark if it is higher.</li>
 *   <li>A watermark from an idle input marks it active again, as Flink's partial watermarks do.</li>
 *   <li>An input that becomes active again (or a new input, which starts active at {@link Long#MIN_VALUE})
 *       never lowers the output, but holds it where it is until its own watermark passes it. (Flink's
 *       {@code StatusWatermarkValve} would leave such a lagging input out until it catches up; here it is
 *       waited for, so fewer of its events become late.)</li>
 * </ul>
 *
 * <p>State is two parallel primitive arrays and a count of active inputs; no call allocates except
 * {@link #addInput()} when the arrays grow. Each call is O(1) unless the input involved may have been the
 * minimum, then O(inputs): the invariant {@code output >= min over active inputs} (whenever any is active)
 * means an input whose watermark is above the output cannot be the minimum, so raising it or setting it idle
 * changes nothing.
 *
 * <p>Owned by one thread (the shard's worker); not thread-safe.
 */
public final class WatermarkValve {

    /** Returned by the update methods when the combined watermark did not advance. */
    public static final long NO_ADVANCE = Long.MIN_VALUE;

    private long[] watermarks;
    private boolean[] idle;
    private int inputs;
    private int activeInputs;
    private long output = Long.MIN_VALUE;

    /** A valve with no inputs yet. */
    public WatermarkValve() {
        this(4);
    }

    /**
     * @param expectedInputs how many inputs to make room for up front (more can be added)
     * @throws IllegalArgumentException if {@code expectedInputs} is negative
     */
    public WatermarkValve(int expectedInputs) {
        if (expectedInputs < 0) {
            throw new IllegalArgumentException("expectedInputs must not be negative, got " + expectedInputs);
        }
        watermarks = new long[Math.max(expectedInputs, 1)];
        idle = new boolean[watermarks.length];
    }

    /**
     * Registers an input: active, at watermark {@link Long#MIN_VALUE}. It holds the output where it is until it
     * reports a watermark above it or goes idle.
     *
     * @return the input's index, counting from 0 in registration order
     */
    public int addInput() {
        if (inputs == watermarks.length) {
            int grown = watermarks.length * 2;
            watermarks = Arrays.copyOf(watermarks, grown);
            idle = Arrays.copyOf(idle, grown);
        }
        int input = inputs++;
        watermarks[input] = Long.MIN_VALUE;
        idle[input] = false;
        activeInputs++;
        return input;
    }

    /**
     * Takes a watermark from an input, which also marks the input active.
     *
     * @param input     the input's index
     * @param watermark its watermark; ignored if lower than one it sent before
     * @return the new combined watermark, or {@link #NO_ADVANCE} if it did not advance
     * @throws IndexOutOfBoundsException if {@code input} is not registered
     */
    public long onWatermark(int input, long watermark) {
        checkInput(input);
        long previous = watermarks[input];
        if (watermark > previous) {
            watermarks[input] = watermark;
        }
        if (idle[input]) {
            idle[input] = false;
            activeInputs++;
            return advance();
        }
        if (watermark <= previous || previous > output) {
            // unchanged, or raised while above the output so it was not the minimum (class invariant)
            return NO_ADVANCE;
        }
        return advance();
    }

    /**
     * Marks an input idle: it is left out of the combined watermark until it is active again.
     *
     * @param input the input's index
     * @return the new combined watermark, or {@link #NO_ADVANCE} if it did not advance (always the case when this
     *     was the last active input)
     * @throws IndexOutOfBoundsException if {@code input} is not registered
     */
    public long onIdle(int input) {
        checkInput(input);
        if (idle[input]) {
            return NO_ADVANCE;
        }
        idle[input] = true;
        activeInputs--;
        if (watermarks[input] > output) {
            return NO_ADVANCE; // it was not the minimum, so the minimum of the others is unchanged
        }
        return advance();
    }

    /**
     * Marks an input active again, with the watermark it had before it went idle.
     *
     * @param input the input's index
     * @return the new combined watermark, or {@link #NO_ADVANCE} if it did not advance (it can only advance when
     *     every input was idle and this one's watermark is above the output)
     * @throws IndexOutOfBoundsException if {@code input} is not registered
     */
    public long onActive(int input) {
        checkInput(input);
        if (!idle[input]) {
            return NO_ADVANCE;
        }
        idle[input] = false;
        activeInputs++;
        // joining a non-empty active set can only lower the minimum, which was already <= output
        return activeInputs == 1 ? advance() : NO_ADVANCE;
    }

    /** @return the combined watermark: {@link Long#MIN_VALUE} until it first advances */
    public long current() {
        return output;
    }

    /** @return how many inputs are registered */
    public int inputCount() {
        return inputs;
    }

    /** @return how many registered inputs are active */
    public int activeInputCount() {
        return activeInputs;
    }

    /**
     * @param input the input's index
     * @return whether the input is idle
     * @throws IndexOutOfBoundsException if {@code input} is not registered
     */
    public boolean isIdle(int input) {
        checkInput(input);
        return idle[input];
    }

    /**
     * @param input the input's index
     * @return the highest watermark the input has sent, {@link Long#MIN_VALUE} if none
     * @throws IndexOutOfBoundsException if {@code input} is not registered
     */
    public long watermarkOf(int input) {
        checkInput(input);
        return watermarks[input];
    }

    /** Recomputes the minimum over active inputs and moves the output up to it if it is higher. */
    private long advance() {
        if (activeInputs == 0) {
            return NO_ADVANCE; // every input idle: hold (see the class comment)
        }
        long min = Long.MAX_VALUE;
        for (int i = 0; i < inputs; i++) {
            if (!idle[i] && watermarks[i] < min) {
                min = watermarks[i];
            }
        }
        if (min > output) {
            output = min;
            return min;
        }
        return NO_ADVANCE;
    }

    private void checkInput(int input) {
        if (input < 0 || input >= inputs) {
            throw new IndexOutOfBoundsException(
                    "watermark valve input " + input + " is not registered (" + inputs + " inputs)");
        }
    }

    @Override
    public String toString() {
        return "WatermarkValve[output=" + output + ", inputs=" + inputs + ", active=" + activeInputs + "]";
    }
}

package io.cepheus.runtime.agent;

/**
 * The state machine behind {@link IdleStrategy#backoff}: which idle step comes next, kept apart from the
 * spinning, yielding and parking themselves so it can be tested as pure logic.
 *
 * <p>Idea (as in Agrona's BackoffIdleStrategy): the cheaper a wake-up, the more it costs the machine, so a
 * thread that stays idle moves from spinning (reacts in nanoseconds, burns a core) to yielding (lets other
 * threads run) to parking (frees the core, wakes up late). Park periods double so a long-idle thread costs
 * little, and are capped so it still notices new work reasonably soon. Any work resets the sequence.
 *
 * <p>Sequence after a reset: {@code maxSpins} x {@link Step#SPIN}, then {@code maxYields} x {@link Step#YIELD},
 * then {@link Step#PARK} forever, with {@link #parkNanos()} = min, 2 min, 4 min, ... capped at max.
 *
 * <p><b>Threading:</b> owned by the one thread that idles with it; not thread-safe.
 */
final class BackoffState {

    /** One idle step. */
    enum Step { SPIN, YIELD, PARK }

    private final int maxSpins;
    private final int maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;

    private int spins;
    private int yields;
    /** 0 until the first park after a reset, then the length of the latest park. */
    private long parkNanos;

    BackoffState(int maxSpins, int maxYields, long minParkNanos, long maxParkNanos) {
        if (maxSpins < 0) {
            throw new IllegalArgumentException("maxSpins must be >= 0, was " + maxSpins);
        }
        if (maxYields < 0) {
            throw new IllegalArgumentException("maxYields must be >= 0, was " + maxYields);
        }
        if (minParkNanos < 1) {
            throw new IllegalArgumentException("minParkNanos must be >= 1, was " + minParkNanos);
        }
        if (maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException(
                    "maxParkNanos (" + maxParkNanos + ") must be >= minParkNanos (" + minParkNanos + ")");
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
    }

    /**
     * Advances to the next idle step.
     *
     * @return what to do for this idle step; for {@link Step#PARK}, {@link #parkNanos()} says how long
     */
    Step next() {
        if (spins < maxSpins) {
            spins++;
            return Step.SPIN;
        }
        if (yields < maxYields) {
            yields++;
            return Step.YIELD;
        }
        if (parkNanos == 0) {
            parkNanos = minParkNanos;
        } else {
            // doubling without overflow: compare against half the cap instead of multiplying first
            parkNanos = parkNanos > maxParkNanos / 2 ? maxParkNanos : parkNanos * 2;
        }
        return Step.PARK;
    }

    /** @return the length of the latest {@link Step#PARK} step, or 0 if none since the last reset */
    long parkNanos() {
        return parkNanos;
    }

    /** Back to the start of the sequence. */
    void reset() {
        spins = 0;
        yields = 0;
        parkNanos = 0;
    }

    @Override
    public String toString() {
        return "backoff(maxSpins=" + maxSpins + ", maxYields=" + maxYields + ", minParkNanos=" + minParkNanos
                + ", maxParkNanos=" + maxParkNanos + ")";
    }
}

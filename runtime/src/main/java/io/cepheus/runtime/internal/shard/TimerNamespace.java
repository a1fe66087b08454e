package io.cepheus.runtime.internal.shard;

/**
 * Layout of a timer's namespace on a shard: the operator's id in the top 24 bits, so the shard hands each fired
 * timer to its operator, and 40 bits the operator uses as it likes (a window's slot, a join side).
 */
public final class TimerNamespace {

    /** Bits left to the operator. */
    public static final int LOCAL_BITS = 40;
    /** Largest local part. */
    public static final long MAX_LOCAL = (1L << LOCAL_BITS) - 1;

    private TimerNamespace() {
    }

    /**
     * @param operatorId the operator's id on the shard
     * @param local      the operator's own part, 0 to {@link #MAX_LOCAL}
     * @return the namespace
     */
    public static long of(int operatorId, long local) {
        if (local < 0 || local > MAX_LOCAL) {
            throw new IllegalArgumentException("local timer namespace " + local + " outside [0, " + MAX_LOCAL + "]");
        }
        return ((long) operatorId << LOCAL_BITS) | local;
    }

    /** @return the operator id of a namespace */
    public static int operatorOf(long namespace) {
        return (int) (namespace >>> LOCAL_BITS);
    }

    /** @return the operator's own part of a namespace */
    public static long localOf(long namespace) {
        return namespace & MAX_LOCAL;
    }
}

package io.cepheus.runtime.internal.shard;

import io.cepheus.runtime.UserCodeException;

/**
 * The failures of user code in one batch of a shard, reported when the batch ends.
 *
 * <p>Why not throw at once: user code runs deep inside the shard's loops (the events a watermark releases, the
 * timers it fires, the keys it settles). An exception thrown from there would leave the loop half done: keys not
 * advanced to the watermark, buffered events taken out and never matched, state never freed. An engine told to
 * log and go on would then carry that inconsistency forward silently. So the operators catch what user code
 * throws, hand it here and finish their work; the shard throws the first failure, with the others suppressed,
 * at the end of the batch ({@link #throwIfAny}), where its error handler decides.
 *
 * <p>Owned by the shard's thread.
 */
public final class UserFailures {

    private UserCodeException first;
    private int count;

    /** Records a failure; the shard reports it at the end of the batch. */
    public void report(UserCodeException failure) {
        count++;
        if (first == null) {
            first = failure;
        } else if (count <= UserCodeException.MAX_SUPPRESSED + 1) {
            first.addSuppressed(failure);
        }
    }

    /** @return whether a failure waits to be reported */
    public boolean any() {
        return first != null;
    }

    /**
     * Throws the first failure since the last call, if any, and forgets them all.
     *
     * @throws UserCodeException the first failure, the others attached as suppressed
     */
    public void throwIfAny() {
        UserCodeException failure = first;
        if (failure == null) {
            return;
        }
        int all = count;
        first = null;
        count = 0;
        if (all > 1) {
            failure.addSuppressed(new IllegalStateException(all + " user functions threw in this batch; the first"
                    + " is reported, " + Math.min(all - 1, UserCodeException.MAX_SUPPRESSED) + " more are attached"));
        }
        throw failure;
    }
}

package io.cepheus.runtime;

/**
 * User code run by the engine threw: a pattern condition, a match, timeout, late-event or dead-letter handler,
 * a process function, a window or join function. The message names the function, the operator, the key and the
 * record's timestamp; the cause is what the user code threw.
 *
 * <p>The engine never lets such an exception cut through its own bookkeeping: the record it was handling is
 * finished (the key's state stays consistent and the watermark reaches every key), and the exception is handed
 * to the engine's {@link io.cepheus.runtime.agent.ErrorHandler} at the end of the shard's batch, which decides
 * whether the engine goes on ({@link io.cepheus.runtime.agent.ErrorHandler#logAndContinue}) or stops (the
 * default). Where the stream has a dead-letter handler, the failed record goes there instead and the engine
 * goes on. When several functions throw in one batch, the first is reported with the others attached as
 * suppressed exceptions (up to {@value #MAX_SUPPRESSED}; the message counts them all).
 */
public final class UserCodeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Further failures of one batch attached to the first one at most. */
    public static final int MAX_SUPPRESSED = 16;

    /** What threw. */
    private final String function;
    /** The operator that ran it. */
    private final String operator;
    /** The key it ran for (not serialized: keys need not be serializable). */
    private final transient Object key;
    /** The event or record time it ran at. */
    private final long timestamp;

    /**
     * @param function  what threw, e.g. "match handler", "window function"
     * @param operator  the operator that ran it, e.g. "pattern 0"
     * @param key       the key of the record (may be null for records without a key)
     * @param timestamp the record's timestamp
     * @param cause     what the user code threw
     */
    public UserCodeException(String function, String operator, Object key, long timestamp, Throwable cause) {
        super(function + " of " + operator + " threw on key " + key + " at timestamp " + timestamp + ": "
                + cause, cause);
        this.function = function;
        this.operator = operator;
        this.key = key;
        this.timestamp = timestamp;
    }

    /** @return what threw, e.g. "match handler" */
    public String function() {
        return function;
    }

    /** @return the operator that ran it, e.g. "pattern 0" */
    public String operator() {
        return operator;
    }

    /** @return the key of the record the user code was handling (null if not kept) */
    public Object key() {
        return key;
    }

    /** @return the timestamp of that record */
    public long timestamp() {
        return timestamp;
    }
}

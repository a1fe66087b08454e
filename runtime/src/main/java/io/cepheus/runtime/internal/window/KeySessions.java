package io.cepheus.runtime.internal.window;

/**
 * One key's session windows in {@link SessionWindowOperator}. A key usually has one open session: it lives in
 * this object's fields, so that the element path ({@link SingleSessionPath}) reads and writes one small object
 * (plus the accumulator). A key with several sessions at once (a new session opens before the previous one is
 * removed, or an out-of-order element opens an earlier one) keeps all of them in a {@link SessionList} instead
 * ({@link SessionListPath}), and the fields describing a single session are unused until it is back to one.
 *
 * <p>Owned by the shard thread, like the operator that holds it.
 */
final class KeySessions {

    /** Single session (when {@link #list} is null): its window {@code [start, end)}. */
    long start;
    /** Single session: the end of its window (exclusive); its max timestamp is {@code end - 1}. */
    long end;
    /** Single session: the accumulator or reduced value, null when empty (purged). */
    Object acc;
    /** Single session, accumulating-and-retracting mode: the result it emitted last, to withdraw; else null. */
    Object last;
    /** Single session: whether it fires when the watermark reaches {@code end - 1} (it has not fired for it). */
    boolean pending;
    /** The key's sessions when it has more than one, else null. */
    SessionList list;
}

package io.cepheus.nfa;

/**
 * An after-match skip strategy with {@code throwExceptionOnMiss()} met a match it cannot skip from: the named stage
 * is missing from the match, or its target is the match's own first event (Flink's "Could not skip to first element
 * of a match"). That match was dropped (not emitted, nothing pruned for it); the step or time advance that met it,
 * and the key's other matches, were completed first, so the key's state is consistent and the next call proceeds
 * normally. Several such matches in one call are reported as one exception, the others suppressed.
 */
public final class SkipStrategyException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** @param message names the stage, the strategy, the key and the dropped match */
    public SkipStrategyException(String message) {
        super(message);
    }
}

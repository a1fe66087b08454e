package io.cepheus.pattern;

import java.util.Objects;

/**
 * What happens to the other partial matches after a match is emitted. With every strategy other than
 * {@link #noSkip()}, a completed match is held back while a partial match that started earlier is still
 * alive (as Flink does), so that the strategy can prune consistently.
 *
 * <p>For {@code a+ b} over {@code a1 a2 a3 b}: {@code noSkip} emits {@code a1a2a3b, a2a3b, a3b};
 * {@code skipToNext} the same three; {@code skipPastLastEvent} only {@code a1a2a3b};
 * {@code skipToFirst("a")} emits {@code a1a2a3b} and continues from {@code a1}; {@code skipToLast("a")}
 * continues from {@code a3}.
 *
 * @param kind          the strategy
 * @param stage         the stage named by {@link Kind#SKIP_TO_FIRST}/{@link Kind#SKIP_TO_LAST}, else null
 * @param throwOnAbsent whether a match without the named stage is an error instead of "do not prune"
 */
public record AfterMatchSkipStrategy(Kind kind, String stage, boolean throwOnAbsent) {

    /** The strategies of Flink CEP. */
    public enum Kind {
        /** Every match is emitted. */
        NO_SKIP,
        /** Discard partial matches that started with the match's first event. */
        SKIP_TO_NEXT,
        /** Discard partial matches that started before the match's last event (inclusive). */
        SKIP_PAST_LAST_EVENT,
        /** Discard partial matches that started before the first event of the named stage. */
        SKIP_TO_FIRST,
        /** Discard partial matches that started before the last event of the named stage. */
        SKIP_TO_LAST
    }

    private static final AfterMatchSkipStrategy NO_SKIP = new AfterMatchSkipStrategy(Kind.NO_SKIP, null, false);

    /**
     * Validates the combination.
     *
     * @param kind          the strategy
     * @param stage         the stage named by {@link Kind#SKIP_TO_FIRST}/{@link Kind#SKIP_TO_LAST}, else null
     * @param throwOnAbsent whether a match without the named stage is an error instead of "do not prune"
     */
    public AfterMatchSkipStrategy {
        Objects.requireNonNull(kind, "kind");
        boolean named = kind == Kind.SKIP_TO_FIRST || kind == Kind.SKIP_TO_LAST;
        if (named && (stage == null || stage.isBlank())) {
            throw new MalformedPatternException(kind + " needs the name of a stage");
        }
        if (!named && stage != null) {
            throw new MalformedPatternException(kind + " does not take a stage name");
        }
        if (!named && throwOnAbsent) {
            throw new MalformedPatternException(kind + " names no stage, so nothing can be missing");
        }
    }

    /** @return every match is emitted, nothing is pruned (the default) */
    public static AfterMatchSkipStrategy noSkip() {
        return NO_SKIP;
    }

    /** @return prune partial matches that start with the emitted match's first event */
    public static AfterMatchSkipStrategy skipToNext() {
        return new AfterMatchSkipStrategy(Kind.SKIP_TO_NEXT, null, false);
    }

    /** @return prune partial matches that start at or before the emitted match's last event */
    public static AfterMatchSkipStrategy skipPastLastEvent() {
        return new AfterMatchSkipStrategy(Kind.SKIP_PAST_LAST_EVENT, null, false);
    }

    /**
     * @param stage a stage of the pattern, not one inside a group (the compiler refuses those, as Flink does)
     * @return prune partial matches that start before the first event the emitted match has in {@code stage}
     */
    public static AfterMatchSkipStrategy skipToFirst(String stage) {
        return new AfterMatchSkipStrategy(Kind.SKIP_TO_FIRST, stage, false);
    }

    /**
     * @param stage a stage of the pattern, not one inside a group (the compiler refuses those, as Flink does)
     * @return prune partial matches that start before the last event the emitted match has in {@code stage}
     */
    public static AfterMatchSkipStrategy skipToLast(String stage) {
        return new AfterMatchSkipStrategy(Kind.SKIP_TO_LAST, stage, false);
    }

    /**
     * @return the same strategy, but a match that has no event in the named stage raises an error instead of
     *     pruning nothing
     */
    public AfterMatchSkipStrategy throwExceptionOnMiss() {
        if (stage == null) {
            throw new MalformedPatternException(kind + " names no stage, so nothing can be missing");
        }
        return new AfterMatchSkipStrategy(kind, stage, true);
    }

    /** @return whether completed matches are held back and partial matches pruned */
    public boolean isSkipping() {
        return kind != Kind.NO_SKIP;
    }
}

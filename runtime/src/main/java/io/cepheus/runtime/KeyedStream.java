package io.cepheus.runtime;

import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.internal.shard.OperatorRegistry;
import io.cepheus.runtime.join.IntervalJoin;
import io.cepheus.runtime.join.TemporalJoin;
import io.cepheus.runtime.rules.RuleStream;
import io.cepheus.runtime.window.CoGroupedStreams;
import io.cepheus.runtime.window.JoinedStreams;
import io.cepheus.runtime.window.WindowAssigner;
import io.cepheus.runtime.window.WindowedStream;
import java.util.Comparator;
import java.util.Objects;
import java.util.function.Function;

/**
 * An engine's events partitioned by key: every pattern registered here is matched per key, and all of them
 * share the routing and the shard's key dictionary; the event-time patterns that order equal timestamps the same
 * way also share the shard's event-time buffer, so each event waits for the watermark once however many
 * patterns watch the stream.
 *
 * @param <T> the event type
 */
public final class KeyedStream<T> {

    private final OperatorRegistry<T> registry;
    private final NfaOptions nfaOptions;

    KeyedStream(OperatorRegistry<T> registry, NfaOptions nfaOptions) {
        this.registry = registry;
        this.nfaOptions = nfaOptions;
    }

    /**
     * Registers a pattern, matched per key in event time.
     *
     * @param pattern the pattern (compiled now: a malformed one is rejected here)
     * @return the pattern stream, to say where matches, timeouts and late events go
     */
    public PatternStream<T> pattern(Pattern<T> pattern) {
        return pattern(pattern, null);
    }

    /**
     * Registers a pattern with a comparator that orders a key's events of equal timestamp (before arrival
     * order, which decides otherwise).
     *
     * @param pattern    the pattern
     * @param tieBreaker orders events with equal timestamps
     * @return the pattern stream
     */
    public PatternStream<T> pattern(Pattern<T> pattern, Comparator<? super T> tieBreaker) {
        registry.checkNotStarted("pattern()");
        return new PatternStream<>(registry, NfaCompiler.compile(pattern), tieBreaker, nfaOptions);
    }

    /**
     * Starts a live rule set on this stream: patterns with an id and a version, matched per key in event time, that
     * can be added, replaced and removed while the engine runs ({@link RuleStream}).
     *
     * @return the rule set, empty: put its first rules before or after the engine starts
     */
    public RuleStream<T> rules() {
        return rules(null);
    }

    /**
     * As {@link #rules()}, with a comparator that orders a key's events of equal timestamp (before arrival order).
     *
     * @param tieBreaker orders events with equal timestamps; null for arrival order
     * @return the rule set
     */
    public RuleStream<T> rules(Comparator<? super T> tieBreaker) {
        registry.checkNotStarted("rules()");
        return new RuleStream<>(registry, nfaOptions, tieBreaker);
    }

    /**
     * Cuts this keyed stream into windows (Flink's {@code keyBy(...).window(assigner)}); for non-keyed windows use
     * {@code engine.windowAll(assigner)}.
     *
     * @param assigner puts elements into windows
     * @return the windowed stream, to configure and finish with reduce, aggregate or process
     */
    public WindowedStream<T> window(WindowAssigner<T> assigner) {
        registry.checkNotStarted("window()");
        return new WindowedStream<>(registry, assigner);
    }

    /**
     * Joins two sides of this stream per key and window (Flink's {@code join(...).where(k).equalTo(k)}: both sides
     * share the engine's key selector). An element is left if it is a {@code left}, right if it is a
     * {@code right}.
     *
     * @param left  the left side's class
     * @param right the right side's class
     * @param <L>   left type
     * @param <R>   right type
     * @return the joined streams, to window and apply a join function
     */
    public <L, R> JoinedStreams<T, L, R> join(Class<L> left, Class<R> right) {
        return new JoinedStreams<>(registry, instancesOf(left), instancesOf(right));
    }

    /**
     * As {@link #join(Class, Class)}, with sides selected by functions returning null for "not this side".
     *
     * @param left  the left value of an element, or null
     * @param right the right value of an element, or null
     * @param <L>   left type
     * @param <R>   right type
     * @return the joined streams
     */
    public <L, R> JoinedStreams<T, L, R> join(Function<? super T, ? extends L> left,
            Function<? super T, ? extends R> right) {
        return new JoinedStreams<>(registry, left, right);
    }

    /**
     * Groups two sides of this stream per key and window: the coGroup function receives both element lists of each
     * window firing (outer joins and more).
     *
     * @param left  the left side's class
     * @param right the right side's class
     * @param <L>   left type
     * @param <R>   right type
     * @return the co-grouped streams
     */
    public <L, R> CoGroupedStreams<T, L, R> coGroup(Class<L> left, Class<R> right) {
        return new CoGroupedStreams<>(registry, instancesOf(left), instancesOf(right));
    }

    /**
     * As {@link #coGroup(Class, Class)}, with sides selected by functions returning null for "not this side".
     *
     * @param left  the left value of an element, or null
     * @param right the right value of an element, or null
     * @param <L>   left type
     * @param <R>   right type
     * @return the co-grouped streams
     */
    public <L, R> CoGroupedStreams<T, L, R> coGroup(Function<? super T, ? extends L> left,
            Function<? super T, ? extends R> right) {
        return new CoGroupedStreams<>(registry, left, right);
    }

    /**
     * Starts an interval join of two kinds of this stream's elements, told apart by class: a left and a right
     * element of the same key join when their timestamps fit the bounds given to
     * {@link IntervalJoin#between}.
     *
     * @param left  the left elements' class (an event that is an instance of it is a left element)
     * @param right the right elements' class
     * @param <L>   the left type
     * @param <R>   the right type
     * @return the join to configure
     */
    public <L, R> IntervalJoin<T, L, R> intervalJoin(Class<L> left, Class<R> right) {
        registry.checkNotStarted("intervalJoin()");
        return new IntervalJoin<>(registry, instancesOf(left), instancesOf(right), true);
    }

    /**
     * Starts an interval join whose sides are selected by functions: each returns the event as an element of
     * its side, or null if the event is not one (an event both select takes part on both sides).
     *
     * @param left  the left element of an event, or null
     * @param right the right element of an event, or null
     * @param <L>   the left type
     * @param <R>   the right type
     * @return the join to configure
     */
    public <L, R> IntervalJoin<T, L, R> intervalJoin(Function<? super T, ? extends L> left,
            Function<? super T, ? extends R> right) {
        registry.checkNotStarted("intervalJoin()");
        return new IntervalJoin<>(registry, left, right, false);
    }

    /**
     * Starts a temporal (as-of) join: elements of class {@code stream} join the version of class
     * {@code versions} of the same key that was valid at their timestamp (the version's timestamp is its event
     * time).
     *
     * @param stream   the stream elements' class
     * @param versions the table versions' class
     * @param <S>      the stream type
     * @param <V>      the version type
     * @return the join to configure
     */
    public <S, V> TemporalJoin<T, S, V> temporalJoin(Class<S> stream, Class<V> versions) {
        registry.checkNotStarted("temporalJoin()");
        return new TemporalJoin<>(registry, instancesOf(stream), instancesOf(versions), true);
    }

    /**
     * Starts a temporal join whose sides are selected by functions (null: not this side).
     *
     * @param stream   the stream element of an event, or null
     * @param versions the table version of an event, or null
     * @param <S>      the stream type
     * @param <V>      the version type
     * @return the join to configure
     */
    public <S, V> TemporalJoin<T, S, V> temporalJoin(Function<? super T, ? extends S> stream,
            Function<? super T, ? extends V> versions) {
        registry.checkNotStarted("temporalJoin()");
        return new TemporalJoin<>(registry, stream, versions, false);
    }

    /** @return a side selector taking the events that are instances of {@code type}, as that type */
    private static <T, X> Function<T, X> instancesOf(Class<X> type) {
        Objects.requireNonNull(type, "type");
        return e -> type.isInstance(e) ? type.cast(e) : null;
    }
}

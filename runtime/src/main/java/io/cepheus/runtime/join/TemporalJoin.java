package io.cepheus.runtime.join;

import io.cepheus.runtime.internal.shard.OperatorRegistry;
import java.util.Objects;
import java.util.function.Function;

/**
 * A temporal (as-of) join being configured: stream elements of this keyed stream join the version of a
 * versioned table, fed as a changelog of the same stream (key = the engine's key, version timestamp = the
 * version event's event time), that was valid at the element's timestamp: the latest version with
 * {@code version.ts <= element.ts}. An element is joined once the join's watermark (the minimum of all inputs')
 * passes its timestamp, so versions arriving out of order before then still count.
 *
 * <pre>{@code
 * engine.keyBy(Event::currency)
 *       .temporalJoin(Order.class, Rate.class)
 *       .apply((order, rate) -> order.amount() * rate.toEuro())
 *       .results((currency, euros, ts) -> ...)
 *       .unmatched((currency, order, ts, at) -> ...);   // orders before the first rate
 * }</pre>
 *
 * <p>Configured on the thread that sets up the engine, before it starts.
 *
 * @param <T> the engine's event type
 * @param <S> the stream elements' type
 * @param <V> the table versions' type
 */
public final class TemporalJoin<T, S, V> {

    private final OperatorRegistry<T> registry;
    private final Function<? super T, ? extends S> streamSide;
    private final Function<? super T, ? extends V> versionSide;
    private boolean joinMissingWithNull;
    /** Whether stream elements and versions are the events themselves (sides chosen by class). */
    private final boolean sidesAreEvents;
    private io.cepheus.nfa.EventCodec<S> streamCodec;
    private io.cepheus.nfa.EventCodec<V> versionCodec;

    /**
     * Made by {@link io.cepheus.runtime.KeyedStream#temporalJoin}; not meant to be called directly.
     *
     * @param registry       where the join's operator is registered
     * @param streamSide     the stream element of an event, or null
     * @param versionSide    the table version of an event, or null
     * @param sidesAreEvents whether the elements are the events themselves (sides chosen by class), so the
     *                       engine's event codec writes them
     */
    public TemporalJoin(OperatorRegistry<T> registry, Function<? super T, ? extends S> streamSide,
            Function<? super T, ? extends V> versionSide, boolean sidesAreEvents) {
        this.registry = registry;
        this.streamSide = Objects.requireNonNull(streamSide, "streamSide");
        this.versionSide = Objects.requireNonNull(versionSide, "versionSide");
        this.sidesAreEvents = sidesAreEvents;
    }

    /**
     * Gives codecs for the stream elements and versions the join holds, so that it takes part in snapshots
     * ({@link io.cepheus.runtime.CepEngine.Builder#snapshots}). Needed only when the sides are selected by functions: with sides
     * selected by class they are events, written with the engine's event codec.
     *
     * @param stream   writes and reads stream elements
     * @param versions writes and reads versions
     * @return this join
     */
    public TemporalJoin<T, S, V> snapshotCodecs(io.cepheus.nfa.EventCodec<S> stream,
            io.cepheus.nfa.EventCodec<V> versions) {
        registry.checkNotStarted("snapshotCodecs()");
        this.streamCodec = Objects.requireNonNull(stream, "stream");
        this.versionCodec = Objects.requireNonNull(versions, "versions");
        return this;
    }

    /**
     * Joins elements that have no version at their timestamp with {@code null} (a left outer temporal join)
     * instead of sending them to the unmatched output.
     *
     * @return this join
     */
    public TemporalJoin<T, S, V> missingVersionJoinsNull() {
        registry.checkNotStarted("missingVersionJoinsNull()");
        this.joinMissingWithNull = true;
        return this;
    }

    /**
     * Registers the join with the engine.
     *
     * @param function builds the result of an element and its version
     * @param <OUT>    the result type
     * @return the registered join, to say where results, unmatched and late elements go
     * @throws IllegalStateException if the engine takes snapshots and the sides, selected by functions, have no
     *                               {@link #snapshotCodecs}
     */
    public <OUT> TemporalJoinStream<T, S, V, OUT> apply(TemporalJoinFunction<S, V, OUT> function) {
        Objects.requireNonNull(function, "function");
        if (registry.snapshotsEnabled() && !sidesAreEvents && streamCodec == null) {
            throw new IllegalStateException("temporal join: this engine takes snapshots (Builder.snapshots), and this"
                    + " join's sides are selected by functions, so its elements need codecs of their own: call"
                    + " snapshotCodecs(stream, versions) (sides selected by class are events, written with the"
                    + " engine's event codec)");
        }
        return new TemporalJoinStream<>(registry, streamSide, versionSide, joinMissingWithNull, function,
                io.cepheus.runtime.internal.join.SideCodecs.of(sidesAreEvents, streamCodec, versionCodec));
    }
}

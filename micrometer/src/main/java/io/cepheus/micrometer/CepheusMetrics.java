package io.cepheus.micrometer;

import io.cepheus.nfa.StageCounters;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.EngineMetrics;
import io.cepheus.runtime.PatternMetrics;
import io.cepheus.runtime.PatternStream;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.join.IntervalJoinMetrics;
import io.cepheus.runtime.join.IntervalJoinStream;
import io.cepheus.runtime.join.TemporalJoinMetrics;
import io.cepheus.runtime.join.TemporalJoinStream;
import io.cepheus.runtime.rules.RuleMetrics;
import io.cepheus.runtime.rules.RuleStream;
import io.cepheus.runtime.rules.RuleVersion;
import io.cepheus.runtime.window.WindowMetrics;
import io.cepheus.runtime.window.WindowResults;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Binds an engine's counters to a Micrometer {@link MeterRegistry}, in Micrometer's conventions: dotted lower-case
 * names under {@code cepheus.}, counts that only grow as {@link FunctionCounter}s (Prometheus shows them with
 * {@code _total}), levels as {@link Gauge}s, and tags for what a value belongs to ({@code shard}, {@code pattern},
 * {@code rules}, {@code rule}, {@code version}, {@code window}, {@code join}, {@code side}). Every meter reads the
 * engine's published counters when the registry asks (a scrape), from the registry's thread: nothing is added to
 * the engine's hot path.
 *
 * <pre>{@code
 * CepheusMetrics.of(engine)
 *         .pattern("failed-logins", failedLogins)
 *         .rules("fraud", fraudRules)
 *         .tags(Tags.of("service", "alerts"))
 *         .bindTo(registry);
 * }</pre>
 *
 * <p>Meters (each also with the common tags):
 * <ul>
 *   <li>per shard ({@code shard}): counters {@code cepheus.events}, {@code cepheus.events.late},
 *       {@code cepheus.dead.letters}, {@code cepheus.matches}, {@code cepheus.timeouts},
 *       {@code cepheus.partial.matches.rejected}; gauges {@code cepheus.partial.matches},
 *       {@code cepheus.events.buffered} (waiting for the watermark), {@code cepheus.shared.buffer.entries},
 *       {@code cepheus.keys}, {@code cepheus.inbox.depth}, {@code cepheus.watermark} (milliseconds; NaN before the
 *       first watermark);</li>
 *   <li>per pattern ({@code pattern}), summed over the shards: counters {@code cepheus.pattern.matches},
 *       {@code cepheus.pattern.timeouts}, {@code cepheus.pattern.partial.matches.rejected},
 *       {@code cepheus.pattern.events.late}, {@code cepheus.pattern.dead.letters}; gauge
 *       {@code cepheus.pattern.partial.matches};</li>
 *   <li>per rule version ({@code rules}, {@code rule}, {@code version}): counters {@code cepheus.rule.matches},
 *       {@code cepheus.rule.timeouts}, {@code cepheus.rule.partial.matches.rejected},
 *       {@code cepheus.rule.partial.matches.discarded}, {@code cepheus.rule.dead.letters}; gauges
 *       {@code cepheus.rule.partial.matches}, {@code cepheus.rule.in.force} (1 or 0). A version keeps its meters
 *       after it is replaced or removed (its counts stay as they ended). Versions put after {@link #bindTo} get
 *       their meters at the next {@link #refresh()};</li>
 *   <li>per window ({@code window}): counters {@code cepheus.window.firings}, {@code cepheus.window.results},
 *       {@code cepheus.window.retractions}, {@code cepheus.window.elements.late}; gauges
 *       {@code cepheus.window.windows}, {@code cepheus.window.elements.buffered}, {@code cepheus.window.accumulators},
 *       {@code cepheus.window.keys}, {@code cepheus.window.timers};</li>
 *   <li>per interval join ({@code join}, and {@code side} left or right where it applies): counters
 *       {@code cepheus.join.interval.pairs}, {@code cepheus.join.interval.unmatched},
 *       {@code cepheus.join.interval.late}, {@code cepheus.join.interval.dead.letters}; gauges
 *       {@code cepheus.join.interval.buffered}, {@code cepheus.join.interval.buffered.peak};</li>
 *   <li>per temporal join ({@code join}): counters {@code cepheus.join.temporal.joined},
 *       {@code cepheus.join.temporal.unmatched}, {@code cepheus.join.temporal.elements.late},
 *       {@code cepheus.join.temporal.versions.late}, {@code cepheus.join.temporal.dead.letters}; gauges
 *       {@code cepheus.join.temporal.elements.buffered}, {@code cepheus.join.temporal.versions}.</li>
 * </ul>
 *
 * <p>Configure it (any thread), then bind it once; {@link #refresh()} may be called from any thread after that.
 */
public final class CepheusMetrics implements MeterBinder {

    private final CepEngine<?> engine;
    private final List<Binding> bindings = new ArrayList<>();
    private final List<NamedRules> ruleSets = new ArrayList<>();
    private Tags common = Tags.empty();
    private MeterRegistry registry;
    private final Set<String> boundVersions = new HashSet<>();

    /** A stream's meters, registered at {@link #bindTo}. */
    @FunctionalInterface
    private interface Binding {
        void bind(MeterRegistry registry, Tags common);
    }

    private record NamedRules(String name, RuleStream<?> rules) {
    }

    private CepheusMetrics(CepEngine<?> engine) {
        this.engine = Objects.requireNonNull(engine, "engine");
    }

    /**
     * @param engine the engine whose shards to measure
     * @return a binder of the engine's shard meters, to which streams may be added
     */
    public static CepheusMetrics of(CepEngine<?> engine) {
        return new CepheusMetrics(engine);
    }

    /**
     * @param tags tags every meter gets (a service name, an instance)
     * @return this binder
     */
    public synchronized CepheusMetrics tags(Iterable<Tag> tags) {
        checkNotBound();
        this.common = Tags.concat(common, tags);
        return this;
    }

    /**
     * @param name    the {@code pattern} tag
     * @param pattern a pattern stream of the engine
     * @return this binder
     */
    public synchronized CepheusMetrics pattern(String name, PatternStream<?> pattern) {
        checkNotBound();
        Objects.requireNonNull(pattern, "pattern");
        Tags tags = Tags.of("pattern", Objects.requireNonNull(name, "name"));
        Supplier<PatternMetrics> m = pattern::metrics;
        bindings.add((r, c) -> {
            Tags t = c.and(tags);
            counter(r, "cepheus.pattern.matches", "matches emitted", t, m, PatternMetrics::matches);
            counter(r, "cepheus.pattern.timeouts", "partial matches timed out", t, m, PatternMetrics::timeouts);
            counter(r, "cepheus.pattern.partial.matches.rejected", "partial matches dropped at a key's bound", t, m,
                    PatternMetrics::rejectedPartialMatches);
            counter(r, "cepheus.pattern.events.late", "events behind the watermark", t, m, PatternMetrics::lateEvents);
            counter(r, "cepheus.pattern.dead.letters", "events a condition threw on or that broke the bound", t, m,
                    PatternMetrics::deadLetters);
            gauge(r, "cepheus.pattern.partial.matches", "partial matches alive", t, m, PatternMetrics::partialMatches);
            counter(r, "cepheus.pattern.partial.matches.started", "partial matches begun", t, m,
                    PatternMetrics::startedPartialMatches);
            counter(r, "cepheus.pattern.partial.matches.pruned", "partial matches the skip strategy discarded", t, m,
                    PatternMetrics::prunedPartialMatches);
            List<String> stages = pattern.countsStages() ? pattern.pattern().stageNames() : List.of();
            for (int i = 0; i < stages.size(); i++) {
                int stage = i;
                stageMeters(r, "cepheus.pattern.stage", t.and("stage", stages.get(i)),
                        () -> stageOf(m.get().stages(), stage));
            }
        });
        return this;
    }

    /**
     * @param name  the {@code rules} tag
     * @param rules a rule set of the engine
     * @return this binder
     */
    public synchronized CepheusMetrics rules(String name, RuleStream<?> rules) {
        checkNotBound();
        ruleSets.add(new NamedRules(Objects.requireNonNull(name, "name"), Objects.requireNonNull(rules, "rules")));
        return this;
    }

    /**
     * @param name    the {@code window} tag
     * @param results a window of the engine
     * @return this binder
     */
    public synchronized CepheusMetrics window(String name, WindowResults<?> results) {
        checkNotBound();
        Objects.requireNonNull(results, "results");
        Tags tags = Tags.of("window", Objects.requireNonNull(name, "name"));
        Supplier<WindowMetrics> m = results::metrics;
        bindings.add((r, c) -> {
            Tags t = c.and(tags);
            counter(r, "cepheus.window.firings", "window evaluations that emitted", t, m, WindowMetrics::firings);
            counter(r, "cepheus.window.results", "results emitted", t, m, WindowMetrics::results);
            counter(r, "cepheus.window.retractions", "retractions emitted", t, m, WindowMetrics::retractions);
            counter(r, "cepheus.window.elements.late", "elements dropped as late", t, m, WindowMetrics::lateElements);
            gauge(r, "cepheus.window.windows", "windows alive", t, m, WindowMetrics::windows);
            gauge(r, "cepheus.window.elements.buffered", "elements held in window contents", t, m,
                    WindowMetrics::bufferedElements);
            gauge(r, "cepheus.window.accumulators", "accumulators held", t, m, WindowMetrics::accumulators);
            gauge(r, "cepheus.window.keys", "keys with live windows", t, m, WindowMetrics::keys);
            gauge(r, "cepheus.window.timers", "timers pending", t, m, WindowMetrics::timers);
        });
        return this;
    }

    /**
     * @param name the {@code join} tag
     * @param join an interval join of the engine
     * @return this binder
     */
    public synchronized CepheusMetrics intervalJoin(String name, IntervalJoinStream<?, ?, ?, ?> join) {
        checkNotBound();
        Objects.requireNonNull(join, "join");
        Tags tags = Tags.of("join", Objects.requireNonNull(name, "name"));
        Supplier<IntervalJoinMetrics> m = join::metrics;
        bindings.add((r, c) -> {
            Tags t = c.and(tags);
            Tags left = t.and("side", "left");
            Tags right = t.and("side", "right");
            counter(r, "cepheus.join.interval.pairs", "pairs given to the join function", t, m,
                    IntervalJoinMetrics::pairs);
            counter(r, "cepheus.join.interval.unmatched", "elements whose interval closed without a partner", left, m,
                    IntervalJoinMetrics::unmatchedLeft);
            counter(r, "cepheus.join.interval.unmatched", "elements whose interval closed without a partner", right, m,
                    IntervalJoinMetrics::unmatchedRight);
            counter(r, "cepheus.join.interval.late", "elements behind the watermark", left, m,
                    IntervalJoinMetrics::lateLeft);
            counter(r, "cepheus.join.interval.late", "elements behind the watermark", right, m,
                    IntervalJoinMetrics::lateRight);
            counter(r, "cepheus.join.interval.dead.letters", "pairs or elements the join function threw on", t, m,
                    IntervalJoinMetrics::deadLetters);
            gauge(r, "cepheus.join.interval.buffered", "elements waiting for partners", left, m,
                    IntervalJoinMetrics::bufferedLeft);
            gauge(r, "cepheus.join.interval.buffered", "elements waiting for partners", right, m,
                    IntervalJoinMetrics::bufferedRight);
            gauge(r, "cepheus.join.interval.buffered.peak", "the most elements held at once", left, m,
                    IntervalJoinMetrics::peakBufferedLeft);
            gauge(r, "cepheus.join.interval.buffered.peak", "the most elements held at once", right, m,
                    IntervalJoinMetrics::peakBufferedRight);
        });
        return this;
    }

    /**
     * @param name the {@code join} tag
     * @param join a temporal join of the engine
     * @return this binder
     */
    public synchronized CepheusMetrics temporalJoin(String name, TemporalJoinStream<?, ?, ?, ?> join) {
        checkNotBound();
        Objects.requireNonNull(join, "join");
        Tags tags = Tags.of("join", Objects.requireNonNull(name, "name"));
        Supplier<TemporalJoinMetrics> m = join::metrics;
        bindings.add((r, c) -> {
            Tags t = c.and(tags);
            counter(r, "cepheus.join.temporal.joined", "elements joined with a version", t, m,
                    TemporalJoinMetrics::joined);
            counter(r, "cepheus.join.temporal.unmatched", "elements that found no version", t, m,
                    TemporalJoinMetrics::unmatched);
            counter(r, "cepheus.join.temporal.elements.late", "stream elements behind the watermark", t, m,
                    TemporalJoinMetrics::lateElements);
            counter(r, "cepheus.join.temporal.versions.late", "table versions behind the watermark", t, m,
                    TemporalJoinMetrics::lateVersions);
            counter(r, "cepheus.join.temporal.dead.letters", "elements the join function threw on", t, m,
                    TemporalJoinMetrics::deadLetters);
            gauge(r, "cepheus.join.temporal.elements.buffered", "elements waiting for the watermark", t, m,
                    TemporalJoinMetrics::bufferedElements);
            gauge(r, "cepheus.join.temporal.versions", "table versions held", t, m, TemporalJoinMetrics::versions);
        });
        return this;
    }

    /**
     * Registers the meters: the engine's shards, then every stream added. Once.
     *
     * @param registry where the meters go
     * @throws IllegalStateException if already bound
     */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        checkNotBound();
        this.registry = Objects.requireNonNull(registry, "registry");
        int shards = engine.metrics().shards().size();
        for (int s = 0; s < shards; s++) {
            bindShard(registry, s);
        }
        for (Binding b : bindings) {
            b.bind(registry, common);
        }
        refresh();
    }

    /**
     * Registers meters for the rule versions put since the last call (or since {@link #bindTo}); the versions that
     * have meters keep them. Call it after putting rules, or now and then; any thread.
     *
     * @return how many rule versions got meters
     * @throws IllegalStateException if not bound yet
     */
    public synchronized int refresh() {
        if (registry == null) {
            throw new IllegalStateException("bindTo(registry) first");
        }
        int added = 0;
        for (NamedRules set : ruleSets) {
            for (RuleMetrics rm : set.rules().metrics()) {
                if (boundVersions.add(set.name() + '\u0000' + rm.rule().id() + '\u0000' + rm.rule().version())) {
                    bindRuleVersion(registry, set, rm.rule());
                    added++;
                }
            }
        }
        return added;
    }

    private void bindShard(MeterRegistry r, int shard) {
        Tags t = common.and("shard", Integer.toString(shard));
        Supplier<ShardMetrics> m = () -> shardMetrics(shard);
        counter(r, "cepheus.events", "events received", t, m, ShardMetrics::events);
        counter(r, "cepheus.events.late", "events behind the watermark", t, m, ShardMetrics::lateEvents);
        counter(r, "cepheus.dead.letters", "events a condition threw on", t, m, ShardMetrics::deadLetters);
        counter(r, "cepheus.matches", "matches emitted", t, m, ShardMetrics::matches);
        counter(r, "cepheus.timeouts", "partial matches timed out", t, m, ShardMetrics::timeouts);
        counter(r, "cepheus.partial.matches.rejected", "partial matches dropped at a key's bound", t, m,
                ShardMetrics::rejectedPartialMatches);
        gauge(r, "cepheus.partial.matches", "partial matches alive", t, m, ShardMetrics::partialMatches);
        gauge(r, "cepheus.events.buffered", "events waiting for the watermark", t, m, ShardMetrics::bufferedEvents);
        gauge(r, "cepheus.shared.buffer.entries", "shared-buffer entries of the patterns", t, m,
                ShardMetrics::sharedBufferEntries);
        gauge(r, "cepheus.keys", "keys with pending state", t, m, ShardMetrics::keys);
        gauge(r, "cepheus.inbox.depth", "records waiting in the shard's inbox", t, m, ShardMetrics::queueDepth);
        Gauge.builder("cepheus.watermark", engine, e -> {
            long w = m.get().watermark();
            return w == Long.MIN_VALUE ? Double.NaN : (double) w;
        }).description("the shard's watermark").baseUnit("milliseconds").tags(t).register(r);
    }

    private ShardMetrics shardMetrics(int shard) {
        EngineMetrics all = engine.metrics();
        return all.shards().get(shard);
    }

    private void bindRuleVersion(MeterRegistry r, NamedRules set, RuleVersion rule) {
        Tags t = common.and(Tags.of("rules", set.name(), "rule", rule.id(), "version",
                Integer.toString(rule.version())));
        Supplier<RuleMetrics> m = () -> ruleMetrics(set.rules(), rule);
        counter(r, "cepheus.rule.matches", "matches emitted", t, m, RuleMetrics::matches);
        counter(r, "cepheus.rule.timeouts", "partial matches timed out", t, m, RuleMetrics::timeouts);
        counter(r, "cepheus.rule.partial.matches.rejected", "partial matches dropped at a key's bound", t, m,
                RuleMetrics::rejectedPartialMatches);
        counter(r, "cepheus.rule.partial.matches.discarded", "partial matches dropped when the version was retired",
                t, m, RuleMetrics::discardedPartialMatches);
        counter(r, "cepheus.rule.dead.letters", "events a condition threw on", t, m, RuleMetrics::deadLetters);
        gauge(r, "cepheus.rule.partial.matches", "partial matches alive", t, m, RuleMetrics::partialMatches);
        gauge(r, "cepheus.rule.in.force", "1 while the version is the one in force", t, m, v -> v.inForce() ? 1 : 0);
        counter(r, "cepheus.rule.partial.matches.started", "partial matches begun", t, m,
                RuleMetrics::startedPartialMatches);
        counter(r, "cepheus.rule.partial.matches.pruned", "partial matches the skip strategy discarded", t, m,
                RuleMetrics::prunedPartialMatches);
        List<StageCounters> stages = m.get().stages();
        for (int i = 0; i < stages.size(); i++) {
            int stage = i;
            stageMeters(r, "cepheus.rule.stage", t.and("stage", stages.get(i).stage()),
                    () -> stageOf(m.get().stages(), stage));
        }
    }

    /** The counters of one stage: where partial matches stop. */
    private void stageMeters(MeterRegistry r, String prefix, Tags t, Supplier<StageCounters> s) {
        counter(r, prefix + ".events.tested", "events tested at the stage, once per partial match waiting there", t, s,
                StageCounters::tested);
        counter(r, prefix + ".events.taken", "events the stage took", t, s, StageCounters::taken);
        counter(r, prefix + ".partial.matches.rejected", "partial matches an event ended at the stage", t, s,
                StageCounters::rejected);
        counter(r, prefix + ".partial.matches.timed.out", "partial matches that timed out at the stage", t, s,
                StageCounters::timedOut);
    }

    /** @return one stage's counters, zeros while there are none (a version gone) */
    private static StageCounters stageOf(List<StageCounters> stages, int stage) {
        return stage < stages.size() ? stages.get(stage) : new StageCounters("", 0, 0, 0, 0);
    }

    /** @return the version's counters; zeros if the rule set no longer reports it */
    private static RuleMetrics ruleMetrics(RuleStream<?> rules, RuleVersion rule) {
        for (RuleMetrics m : rules.metrics()) {
            if (m.rule().equals(rule)) {
                return m;
            }
        }
        return new RuleMetrics(rule, false, 0, 0, 0, 0, 0, 0, 0, 0, java.util.List.of());
    }

    // Micrometer holds a meter's state object weakly and its function strongly: the state is the engine, which the
    // application keeps, and the function reads the stream's counters; the meters live as long as the engine does.

    private <M> void counter(MeterRegistry r, String name, String description, Tags tags, Supplier<M> source,
            ToLongFunction<M> value) {
        FunctionCounter.builder(name, engine, e -> value.applyAsLong(source.get())).description(description)
                .tags(tags).register(r);
    }

    private <M> void gauge(MeterRegistry r, String name, String description, Tags tags, Supplier<M> source,
            ToDoubleFunction<M> value) {
        Gauge.builder(name, engine, e -> value.applyAsDouble(source.get())).description(description).tags(tags)
                .register(r);
    }

    private void checkNotBound() {
        if (registry != null) {
            throw new IllegalStateException("already bound to a registry: configure the binder before bindTo");
        }
    }
}

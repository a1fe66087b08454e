package io.cepheus.runtime.internal.cep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaCompiler;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.NfaState;
import io.cepheus.nfa.testing.PropertySeeds;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.ShardMetrics;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.timer.TimerService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The event-time CEP operator against a reference that does what Flink's {@code CepOperator} does, without
 * any of the operator's bookkeeping: on each watermark, every buffered event at or below it is fed to its key's
 * NFA in (timestamp, arrival) order, then <em>every</em> key with state is advanced to the watermark (Flink
 * re-registers a watermark timer for each key with partial matches). The operator instead visits only the keys
 * that received events and the keys whose lazy expiry entry came out, and it releases and recreates keys; per
 * key, the matches, timeouts and late events, with their timestamps and in order, must be the same.
 *
 * <p>Random out-of-order streams over 1-4 keys with watermarks in between (some events late), patterns with
 * timeouts, a trailing {@code notFollowedBy}, loops and both window types; windows from a few ms to 100 s, so the
 * expiry wheel's slices are 1 ms to 256 ms wide and entries come out early, late in a slice, or a lap later.
 * After the final watermark the operator holds nothing and knows no key. A second property runs two such patterns
 * on one keyed stream through the engine (1-3 shards), where they share each shard's key dictionary.
 */
class CepOperatorPropertyTest {

    private static final long SEED = PropertySeeds.seed(0xCE90E7A1L);

    private record Ev(String key, String name, long ts) {
        char kind() {
            return name.charAt(0);
        }
    }

    @Test
    void matchesTimesOutAndReleasesAsFlinksOperatorPerKey() {
        PropertySeeds.reportingSeed(SEED, "runtime", "CepOperatorPropertyTest", () ->
                qt().withFixedSeed(SEED).withExamples(500).forAll(longs().all())
                        .checkAssert(s -> check(new Random(s))));
    }

    /**
     * Two patterns on one keyed stream through the engine (1-3 shards, one producer, explicit watermarks): they
     * share each shard's key dictionary, so a key is released only when both are done with it, and each keeps its
     * own expiry entries. Each pattern's output per key must equal the reference's for that pattern alone.
     */
    @Test
    void twoPatternsSharingTheEngineEachMatchAsAlone() {
        PropertySeeds.reportingSeed(SEED, "runtime", "CepOperatorPropertyTest", () ->
                qt().withFixedSeed(SEED).withExamples(150).forAll(longs().all())
                        .checkAssert(s -> checkEngine(new Random(s))));
    }

    private static void checkEngine(Random rnd) {
        int scale = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(10_000) : 1;
        CompiledPattern<Ev>[] compiled = new CompiledPattern[2];
        PerKey[] actual = {new PerKey(), new PerKey()};
        Reference[] references = new Reference[2];
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1 + rnd.nextInt(3)).build();
        io.cepheus.runtime.KeyedStream<Ev> keyed = engine.keyBy(Ev::key);
        for (int p = 0; p < 2; p++) {
            long window = (1 + rnd.nextInt(10)) * (long) scale;
            compiled[p] = NfaCompiler.compile(pattern(rnd.nextInt(5), Duration.ofMillis(window)));
            references[p] = new Reference(compiled[p]);
            PerKey out = actual[p];
            keyed.pattern(compiled[p].pattern())
                    .select(out::match).timeouts(out::timeout).lateEvents(out::late);
        }
        Producer<Ev> producer = engine.newProducer();
        CepTestHarness<Ev> harness = CepTestHarness.start(engine);
        for (Object token : randomInput(rnd, scale, 1 + rnd.nextInt(6))) {
            if (token instanceof Ev ev) {
                producer.send(ev, ev.ts());
                for (Reference r : references) {
                    r.element(ev.key(), ev, ev.ts());
                }
            } else {
                producer.watermark((Long) token);
                for (Reference r : references) {
                    r.watermark((Long) token);
                }
            }
            harness.runUntilIdle();
        }
        producer.watermark(Long.MAX_VALUE);
        harness.runUntilIdle();
        for (Reference r : references) {
            r.watermark(Long.MAX_VALUE);
        }
        for (int p = 0; p < 2; p++) {
            assertEquals(references[p].out.lines, actual[p].lines, "pattern " + p + " per key, " + compiled[p]);
        }
        if (compiled[0].windowMillis() > 0 && compiled[1].windowMillis() > 0) {
            long keysLeft = engine.metrics().shards().stream().mapToLong(ShardMetrics::keys).sum();
            assertEquals(0, keysLeft, "no key is known after the final watermark");
        }
        harness.close();
    }

    private static Pattern<Ev> pattern(int shape, Duration window) {
        return switch (shape) {
            case 0 -> Pattern.<Ev>begin("a").where(e -> e.kind() == 'a')
                    .followedBy("b").where(e -> e.kind() == 'b').within(window);
            case 1 -> Pattern.<Ev>begin("a").where(e -> e.kind() == 'a')
                    .notFollowedBy("b").where(e -> e.kind() == 'b').within(window);
            case 2 -> Pattern.<Ev>begin("a").where(e -> e.kind() == 'a').times(2)
                    .followedBy("c").where(e -> e.kind() == 'c').within(window);
            case 3 -> Pattern.<Ev>begin("a", AfterMatchSkipStrategy.skipPastLastEvent()).where(e -> e.kind() == 'a')
                    .oneOrMore().followedBy("b").where(e -> e.kind() == 'b').within(window);
            default -> Pattern.<Ev>begin("a").where(e -> e.kind() == 'a')
                    .followedByAny("b").where(e -> e.kind() == 'b')
                    .followedBy("c").where(e -> e.kind() == 'c')
                    .within(window, WithinType.PREVIOUS_AND_CURRENT);
        };
    }

    private static void check(Random rnd) {
        int scale = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(10_000) : 1;
        long window = (1 + rnd.nextInt(10)) * (long) scale;
        CompiledPattern<Ev> compiled = NfaCompiler.compile(pattern(rnd.nextInt(5), Duration.ofMillis(window)));
        int keyCount = 1 + rnd.nextInt(4);

        KeyDictionary keys = new KeyDictionary();
        PerKey actual = new PerKey();
        CepOperator<Ev> op = new CepOperator<>(1, compiled, NfaOptions.defaults(), null, keys, new TimerService(),
                actual);
        op.readAheadFromKeys(rnd.nextBoolean() ? 1 : Integer.MAX_VALUE); // with and without reading ahead
        Reference reference = new Reference(compiled);

        for (Object token : randomInput(rnd, scale, keyCount)) {
            if (token instanceof Ev ev) {
                op.processElement(ev.key(), ev, ev.ts());
                reference.element(ev.key(), ev, ev.ts());
            } else {
                op.processWatermark((Long) token);
                reference.watermark((Long) token);
            }
        }
        op.processWatermark(Long.MAX_VALUE);
        reference.watermark(Long.MAX_VALUE);

        assertEquals(reference.out.lines, actual.lines, "per key output, window " + window + ", " + compiled);
        assertEquals(0, op.bufferedEvents());
        if (compiled.windowMillis() > 0) {
            // without a whole-pattern window (only a gap on the last stage) a partial match may wait forever, as in
            // Flink; with one, everything has expired at the final watermark
            assertEquals(0, op.partialMatches());
            assertEquals(0, op.bufferedEntries());
            assertEquals(0, keys.size(), "no key is known after the final watermark, " + compiled);
        }
    }

    /**
     * A random stream: events of up to {@code keyCount} keys around a slowly rising time base, out of order and some
     * behind the watermark, with watermarks ({@code Long}) between them; time steps are multiples of {@code scale}.
     */
    private static List<Object> randomInput(Random rnd, int scale, int keyCount) {
        List<Object> tokens = new ArrayList<>();
        long base = 0;
        int count = rnd.nextInt(80);
        for (int i = 0; i < count; i++) {
            if (rnd.nextInt(5) == 0) {
                base += rnd.nextInt(6) * (long) scale;
                tokens.add(base + (rnd.nextInt(5) - 2L) * scale);
            } else {
                String key = "k" + rnd.nextInt(keyCount);
                long ts = Math.max(0, base + (rnd.nextInt(10) - 3L) * scale + rnd.nextInt(Math.min(scale, 5)));
                tokens.add(new Ev(key, "abcx".charAt(rnd.nextInt(4)) + String.valueOf(i), ts));
            }
        }
        return tokens;
    }

    /** Output lines per key, in the order the key produced them. */
    private static final class PerKey implements CepOperator.Output<Ev> {
        final Map<Object, List<String>> lines = new TreeMap<>(Comparator.comparing(Object::toString));

        void add(Object key, String line) {
            lines.computeIfAbsent(key, k -> new ArrayList<>()).add(line);
        }

        @Override
        public void match(Object key, Match<Ev> match, long timestamp) {
            add(key, "MATCH " + names(match) + " @" + timestamp);
        }

        @Override
        public void timeout(Object key, Match<Ev> partialMatch, long timeoutTimestamp) {
            add(key, "TIMEOUT " + names(partialMatch) + " @" + timeoutTimestamp);
        }

        @Override
        public void late(Object key, Ev event, long timestamp) {
            add(key, "LATE " + event.name());
        }

        private static String names(Match<Ev> m) {
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, List<Ev>> stage : m.asMap().entrySet()) {
                for (Ev e : stage.getValue()) {
                    sb.append(' ').append(stage.getKey()).append('=').append(e.name());
                }
            }
            return sb.toString();
        }
    }

    /** Flink's operator, spelled out: buffer, sort at the watermark, then advance every key with state. */
    private static final class Reference {
        private record Buffered(Object key, Ev event, long ts, int arrival) {
        }

        final PerKey out = new PerKey();
        private final NfaMatcher<Ev> matcher;
        private final Map<Object, NfaState> states = new TreeMap<>(Comparator.comparing(Object::toString));
        private final List<Buffered> buffer = new ArrayList<>();
        private long watermark = Long.MIN_VALUE;
        private int arrivals;

        Reference(CompiledPattern<Ev> compiled) {
            this.matcher = compiled.newMatcher(NfaOptions.defaults());
        }

        void element(Object key, Ev event, long ts) {
            if (ts <= watermark) {
                out.late(key, event, ts);
            } else {
                buffer.add(new Buffered(key, event, ts, arrivals++));
            }
        }

        void watermark(long w) {
            if (w <= watermark) {
                return;
            }
            watermark = w;
            List<Buffered> due = new ArrayList<>();
            for (Buffered b : buffer) {
                if (b.ts() <= w) {
                    due.add(b);
                }
            }
            buffer.removeAll(due);
            due.sort(Comparator.comparingLong(Buffered::ts).thenComparingInt(Buffered::arrival));
            for (Buffered b : due) {
                NfaState state = states.computeIfAbsent(b.key(), matcher::newState);
                matcher.process(state, b.event(), b.ts(), sink(b.key(), b.ts()));
            }
            for (Map.Entry<Object, NfaState> e : states.entrySet()) {
                matcher.advanceTime(e.getValue(), w, sink(e.getKey(), w));
            }
        }

        private MatchSink<Ev> sink(Object key, long recordTimestamp) {
            return new MatchSink<>() {
                @Override
                public void onMatch(Match<Ev> match) {
                    out.match(key, match, recordTimestamp);
                }

                @Override
                public void onTimeout(Match<Ev> partialMatch, long timeoutTimestamp) {
                    out.timeout(key, partialMatch, timeoutTimestamp);
                }
            };
        }
    }
}

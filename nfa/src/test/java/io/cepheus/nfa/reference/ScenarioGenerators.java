package io.cepheus.nfa.reference;

import static org.quicktheories.generators.SourceDSL.lists;

import io.cepheus.pattern.Contiguity;
import java.util.ArrayList;
import java.util.List;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * QuickTheories generators for the random-pattern subset and for small single-key streams.
 *
 * <p>Everything is built from QuickTheories' own primitives with {@code map}/{@code zip}/{@code flatMap},
 * so counterexamples shrink: fewer stages and events, and towards the first choice of each {@code pick}
 * (relaxed contiguity, a single event, a one-type condition), which are listed first for that reason.
 */
public final class ScenarioGenerators {

    /** Longest stream generated. */
    public static final int MAX_EVENTS = 12;

    private static final List<String> NAMES = List.of("a", "b", "c", "d");
    private static final List<Contiguity> CONTIGUITIES = List.of(Contiguity.RELAXED, Contiguity.STRICT,
            Contiguity.NON_DETERMINISTIC_RELAXED);

    /** A stage before names are assigned: gt-last refers to "own" or "previous" stage. */
    private record RawStage(Contiguity contiguity, StageCondition condition, GtLast gtLast, QuantifierSpec quantifier) {
    }

    /** Which stage an iterative gt-last condition reads, relative to the stage it is on. */
    private enum GtLast { NONE, OWN, PREVIOUS }

    /** A stream event before positions and timestamps are assigned. */
    private record RawEvent(char type, int value, int gap) {
    }

    private ScenarioGenerators() {
    }

    /** {@link Generate#frequency} without the generic-varargs warning. */
    @SafeVarargs
    private static <T> Gen<T> weighted(Pair<Integer, Gen<T>>... choices) {
        List<Pair<Integer, Gen<T>>> list = new ArrayList<>();
        for (Pair<Integer, Gen<T>> choice : choices) {
            list.add(choice);
        }
        return Generate.frequency(list);
    }

    /** @return patterns with or without a window, over streams of 0 to {@link #MAX_EVENTS} events */
    public static Gen<Scenario> scenarios() {
        return patterns(windows()).zip(streams(), Scenario::new);
    }

    /** @return patterns that always have a window, over streams of 0 to {@link #MAX_EVENTS} events */
    public static Gen<Scenario> scenariosWithWindow() {
        return patterns(Generate.longRange(1, 8)).zip(streams(), Scenario::new);
    }

    /**
     * @param windows the window generator (0 = none)
     * @return patterns of 1 to 4 stages
     */
    public static Gen<RandomPatternSpec> patterns(Gen<Long> windows) {
        Gen<List<RawStage>> raw = weighted(Pair.of(2, Generate.constant(1)), Pair.of(4, Generate.constant(2)),
                Pair.of(4, Generate.constant(3)), Pair.of(2, Generate.constant(4)))
                .flatMap(n -> lists().of(rawStages()).ofSize(n));
        return raw.zip(windows, ScenarioGenerators::name);
    }

    /** @return no window half of the time, else 1 to 8 ms */
    public static Gen<Long> windows() {
        return weighted(Pair.of(1, Generate.constant(0L)), Pair.of(1, Generate.longRange(1, 8)));
    }

    /** @return streams of 0 to {@link #MAX_EVENTS} events of types A, B, C, values 0 to 3, timestamps from 1 */
    public static Gen<List<RefEvent>> streams() {
        Gen<RawEvent> event = Generate.pick(List.of('A', 'B', 'C'))
                .zip(Generate.range(0, 3), weighted(Pair.of(3, Generate.range(1, 2)),
                        Pair.of(1, Generate.constant(0))), RawEvent::new);
        return lists().of(event).ofSizeBetween(0, MAX_EVENTS).map(ScenarioGenerators::place);
    }

    private static List<RefEvent> place(List<RawEvent> raw) {
        List<RefEvent> out = new ArrayList<>();
        long ts = 1;
        for (RawEvent r : raw) {
            ts += out.isEmpty() ? 0 : r.gap();
            out.add(new RefEvent(r.type(), r.value(), ts, out.size()));
        }
        return out;
    }

    private static RandomPatternSpec name(List<RawStage> raw, long window) {
        List<StageSpec> stages = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            RawStage r = raw.get(i);
            StageCondition c = switch (r.gtLast()) {
                case NONE -> r.condition();
                case OWN -> r.condition().andGreaterThanLastOf(NAMES.get(i));
                case PREVIOUS -> r.condition().andGreaterThanLastOf(NAMES.get(Math.max(0, i - 1)));
            };
            stages.add(new StageSpec(NAMES.get(i), r.contiguity(), c, r.quantifier()));
        }
        return new RandomPatternSpec(stages, window);
    }

    private static Gen<RawStage> rawStages() {
        Gen<GtLast> gtLast = weighted(Pair.of(17, Generate.constant(GtLast.NONE)),
                Pair.of(2, Generate.constant(GtLast.OWN)), Pair.of(1, Generate.constant(GtLast.PREVIOUS)));
        return Generate.pick(CONTIGUITIES).zip(conditions(), gtLast, quantifiers(), RawStage::new);
    }

    private static Gen<StageCondition> conditions() {
        Gen<StageCondition> oneType = Generate.pick(List.of("A", "B", "C")).map(StageCondition::typeIn);
        Gen<StageCondition> twoTypes = Generate.pick(List.of("AB", "BC", "AC")).map(StageCondition::typeIn);
        Gen<StageCondition> any = Generate.constant(StageCondition.any());
        Gen<StageCondition> base = weighted(Pair.of(6, oneType), Pair.of(3, twoTypes), Pair.of(2, any));
        // now and then a value threshold, so that two stages accept overlapping sets of the same type
        return base.zip(weighted(Pair.of(9, Generate.constant(-1)), Pair.of(1, Generate.range(0, 2))),
                (c, above) -> above < 0 ? c : c.andValueAbove(above));
    }

    private static Gen<QuantifierSpec> quantifiers() {
        Gen<Boolean> optional = weighted(Pair.of(3, Generate.constant(false)),
                Pair.of(1, Generate.constant(true)));
        Gen<Contiguity> inner = Generate.pick(CONTIGUITIES);
        Gen<QuantifierSpec> single = optional.map(QuantifierSpec::single);
        Gen<QuantifierSpec> times = Generate.range(1, 3).zip(optional, inner,
                (n, opt, in) -> QuantifierSpec.times(n, n, opt, in));
        Gen<QuantifierSpec> timesRange = Generate.pick(List.of(new int[] {1, 2}, new int[] {1, 3}, new int[] {2, 3}))
                .zip(optional, inner, (r, opt, in) -> QuantifierSpec.times(r[0], r[1], opt, in));
        Gen<QuantifierSpec> oneOrMore = optional.zip(inner, (opt, in) -> QuantifierSpec.looping(1, opt, in));
        Gen<QuantifierSpec> timesOrMore = Generate.range(2, 3).zip(optional, inner,
                (n, opt, in) -> QuantifierSpec.looping(n, opt, in));
        return weighted(Pair.of(8, single), Pair.of(2, times), Pair.of(2, timesRange),
                Pair.of(3, oneOrMore), Pair.of(1, timesOrMore));
    }
}

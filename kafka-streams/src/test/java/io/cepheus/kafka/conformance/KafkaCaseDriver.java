package io.cepheus.kafka.conformance;

import io.cepheus.kafka.CepOutput;
import io.cepheus.kafka.DurableStore;
import io.cepheus.kafka.LateEvent;
import io.cepheus.kafka.PatternMatch;
import io.cepheus.kafka.PatternTimeout;
import io.cepheus.kafka.TestDriverRig;
import io.cepheus.nfa.conformance.CaseOutcome;
import io.cepheus.nfa.conformance.ConformanceCase;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.nfa.conformance.InputToken;
import io.cepheus.nfa.conformance.MatchFormat;
import io.cepheus.nfa.conformance.PatternParser;
import io.cepheus.pattern.Pattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Runs one conformance case through the Kafka Streams adapter on {@link org.apache.kafka.streams.TopologyTestDriver}
 * (the real Kafka Streams runtime, no broker): the case's events are records of key {@code k0} with their
 * timestamps, its watermarks marker records ({@link WatermarkMarkers}), and the output topic's records of
 * {@code k0} are the case's lines. At the cut points the driver is closed and a new one opened on the state it left
 * ({@link TestDriverRig}): the processor goes on from its state store alone.
 */
public final class KafkaCaseDriver {

    private static final String KEY = "k0";
    private static final String STORE = "case-state";

    private KafkaCaseDriver() {
    }

    /** Runs the case without restarts. */
    public static CaseOutcome run(ConformanceCase c) {
        return run(c, Map.of());
    }

    /** Runs the case, restarting the driver as {@code restarts} says before the input tokens at its keys. */
    public static CaseOutcome run(ConformanceCase c, Map<Integer, TestDriverRig.Restart> restarts) {
        return run(c.name(), () -> PatternParser.toPattern(c.pattern(), c.withinMillis(), c.skip()), c.input(),
                c.endWatermark(), restarts);
    }

    /**
     * @param name         the case name
     * @param patternMaker makes the pattern; what it throws is the case's {@code ERROR} line
     * @param input        events and watermarks in input order
     * @param endWatermark the watermark after the last token, if any
     * @param restarts     input positions before which the driver is closed and reopened, and how
     * @return the output lines of the case's key
     */
    public static CaseOutcome run(String name, Supplier<Pattern<Ev>> patternMaker, List<InputToken> input,
            OptionalLong endWatermark, Map<Integer, TestDriverRig.Restart> restarts) {
        List<String> out = new ArrayList<>();
        out.add("== " + name);
        Function<DurableStore, Topology> topology;
        try {
            Pattern<Ev> pattern = patternMaker.get();
            topology = store -> EvTopologies.topology(EvTopologies.caseProcessor("case", store)
                    .pattern("case", pattern).build());
            topology.apply(new DurableStore(STORE)); // what the builder rejects is the case's error
        } catch (RuntimeException e) {
            out.add("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return new CaseOutcome(name, out, null);
        }
        TestDriverRig<String, Ev, CepOutput<Ev>> rig = EvTopologies.rig(topology, STORE);
        try {
            for (int i = 0; i < input.size(); i++) {
                TestDriverRig.Restart restart = restarts.get(i);
                if (restart != null) {
                    rig.restart(restart);
                }
                InputToken token = input.get(i);
                if (token instanceof InputToken.Event e) {
                    rig.pipe(KEY, e.event(), e.event().ts());
                } else if (token instanceof InputToken.Watermark w) {
                    rig.pipe(WatermarkMarkers.KEY, WatermarkMarkers.marker(w.time()), 0L);
                }
            }
            if (endWatermark.isPresent()) {
                rig.pipe(WatermarkMarkers.KEY, WatermarkMarkers.marker(endWatermark.getAsLong()), 0L);
            }
            rig.close();
        } catch (RuntimeException | StackOverflowError e) {
            out.addAll(lines(rig.results()));
            out.add("CRASH " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return new CaseOutcome(name, out, e);
        }
        out.addAll(lines(rig.results()));
        return new CaseOutcome(name, out, null);
    }

    /** @return the lines of the case's key's results */
    static List<String> lines(List<TestRecord<String, CepOutput<Ev>>> results) {
        List<String> out = new ArrayList<>();
        for (TestRecord<String, CepOutput<Ev>> r : results) {
            if (KEY.equals(r.key())) {
                out.add(line(r.value(), r.timestamp()));
            }
        }
        return out;
    }

    /** @return an output record as the expected files write it */
    public static String line(CepOutput<Ev> v, long timestamp) {
        if (v instanceof PatternMatch<Ev> m) {
            return "MATCH " + MatchFormat.format(m.match().asMap());
        } else if (v instanceof PatternTimeout<Ev> t) {
            return "TIMEOUT@" + timestamp + " " + MatchFormat.format(t.partialMatch().asMap());
        } else if (v instanceof LateEvent<Ev> l) {
            return "LATE " + l.event().token();
        }
        return "DEAD LETTER " + v;
    }
}

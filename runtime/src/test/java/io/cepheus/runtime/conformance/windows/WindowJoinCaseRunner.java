package io.cepheus.runtime.conformance.windows;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.conformance.windows.WindowCaseRunner.Ev;
import io.cepheus.runtime.window.JoinedStreams;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@code kind: windowjoin} cases: two producers (left, right), a window join of the 'L' and 'R' elements
 * with the case's assigner, trigger, evictor and lateness, each pair printed as {@code PAIR}.
 */
public final class WindowJoinCaseRunner implements CaseRunner {

    @Override
    public List<List<String>> run(WindowCase c) {
        List<String> out = new ArrayList<>();
        CepEngine<Ev> engine;
        Producer<Ev> left;
        Producer<Ev> right;
        try {
            engine = WindowCaseRunner.newEngine();
            JoinedStreams.WithWindow<Ev, Ev, Ev> join = engine.keyBy(Ev::key)
                    .join(e -> e.side() == 'L' ? e : null, e -> e.side() == 'R' ? e : null)
                    .window(WindowCaseRunner.assigner(c));
            c.setting("trigger").map(String::trim).filter(t -> !t.equals("default"))
                    .ifPresent(t -> join.trigger(WindowCaseRunner.trigger(t)));
            c.setting("evictor").map(String::trim).filter(t -> !t.equals("none"))
                    .ifPresent(t -> join.evictor(WindowCaseRunner.evictor(t)));
            c.setting("lateness").map(String::trim)
                    .ifPresent(l -> join.allowedLateness(java.time.Duration.ofMillis(Long.parseLong(l))));
            join.sideOutputLateData((k, e, ts) -> out.add("LATE " + e.side() + ":" + e.key() + e.value() + "@" + ts));
            join.apply((l, r) -> l.value() + "@" + l.ts() + " " + r.value() + "@" + r.ts())
                    .results((key, window, pair, ts) -> out.add("PAIR " + key + " " + pair + " @" + ts));
            left = engine.newProducer();
            right = engine.newProducer();
        } catch (RuntimeException e) {
            return List.of(List.of("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
        return WindowCaseRunner.feed(c, engine, List.of(left), List.of(right), out);
    }
}

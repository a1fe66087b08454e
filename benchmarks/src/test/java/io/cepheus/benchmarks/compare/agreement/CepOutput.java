package io.cepheus.benchmarks.compare.agreement;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One output of a CEP run, in a form both engines produce: which pattern, which key, what kind, the events by
 * stage (ids) or the late event's id, and the timestamp. {@code advance} numbers Flink's NFA time advances (it
 * groups Flink's timeouts per advance, see {@link CepOutputs}); Cepheus's outputs carry 0.
 *
 * @param pattern the pattern's index in the case
 * @param key     the key
 * @param kind    what it is
 * @param body    {@code {a=0,3,, b=5,}}: each stage's event ids (stages in name order, empty stages left out), or
 *                a late event's id
 * @param ts      the output's timestamp (a match's or timeout's time, a late event's own time)
 * @param advance Flink's time advance it came from, 0 otherwise
 */
record CepOutput(int pattern, int key, Kind kind, String body, long ts, long advance) {

    /** What an output is. */
    enum Kind {
        MATCH, TIMEOUT, LATE
    }

    /** @return a match's or partial match's events as {@link #body()} */
    static String body(Map<String, List<AgreementEvent>> match) {
        TreeMap<String, String> byStage = new TreeMap<>();
        for (Map.Entry<String, List<AgreementEvent>> stage : match.entrySet()) {
            if (stage.getValue().isEmpty()) {
                continue;
            }
            StringBuilder ids = new StringBuilder();
            for (AgreementEvent e : stage.getValue()) {
                ids.append(e.id()).append(',');
            }
            byStage.put(stage.getKey(), ids.toString());
        }
        return byStage.toString();
    }

    /** @return the key of a match's events (all share one) */
    static int keyOf(Map<String, List<AgreementEvent>> match) {
        for (List<AgreementEvent> events : match.values()) {
            if (!events.isEmpty()) {
                return events.get(0).key();
            }
        }
        throw new IllegalArgumentException("a match without events: " + match);
    }
}

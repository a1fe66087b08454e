package io.cepheus.nfa.conformance;

import java.util.List;
import java.util.Map;

/** Prints a match the way the expected files do: {@code {a=[F4@6,F5@7,F6@8], b=[S2@9]}}. */
public final class MatchFormat {

    private MatchFormat() {
    }

    /**
     * @param stages stage name to events, in pattern order (as {@code Match.asMap()} gives them)
     * @return stages separated by {@code ", "}, events by {@code ","}, each event as its input token
     */
    public static String format(Map<String, List<Ev>> stages) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, List<Ev>> stage : stages.entrySet()) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(stage.getKey()).append("=[");
            List<Ev> events = stage.getValue();
            for (int i = 0; i < events.size(); i++) {
                sb.append(i == 0 ? "" : ",").append(events.get(i).token());
            }
            sb.append(']');
        }
        return sb.append('}').toString();
    }
}

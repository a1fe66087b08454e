package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MatchFormatTest {

    @Test
    void printsStagesInMapOrderAndEventsByToken() {
        Map<String, List<Ev>> m = new LinkedHashMap<>();
        m.put("a", List.of(new Ev('F', 4, 6, "F4@6"), new Ev('F', 5, 7, "F5@7"), new Ev('F', 6, 8, "F06@8")));
        m.put("b", List.of(Ev.of('S', 2, 9)));
        assertEquals("{a=[F4@6,F5@7,F06@8], b=[S2@9]}", MatchFormat.format(m));
        assertEquals("{}", MatchFormat.format(Map.of()));
    }
}

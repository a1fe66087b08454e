package io.cepheus.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.cepheus.examples.Alert;
import io.cepheus.examples.apps.SlaBreach.OrderEvent;
import io.cepheus.examples.apps.SlaBreach.Status;
import io.cepheus.examples.apps.TemperatureMonitoring.RackAlert;
import io.cepheus.examples.apps.TemperatureMonitoring.Reading;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** JSON written for alerts, and read back by the JSON Lines reader. */
class JsonTest {

    @Test
    void writesEscapedStringsNumbersBooleansListsAndMaps() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "a\"b\\c\nd\u0001é");
        m.put("n", 12L);
        m.put("d", 98.5);
        m.put("money", BigDecimal.valueOf(1_234_50, 2));
        m.put("b", true);
        m.put("none", null);
        m.put("list", List.of(1, "x"));
        assertEquals("{\"s\":\"a\\\"b\\\\c\\nd\\u0001é\",\"n\":12,\"d\":98.5,\"money\":1234.50,\"b\":true,"
                + "\"none\":null,\"list\":[1,\"x\"]}", Json.write(m));
        assertThrows(IllegalArgumentException.class, () -> Json.write(Double.NaN));
    }

    @Test
    void whatIsWrittenIsReadBack() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "tab\there \"quoted\" \\ back");
        m.put("n", -12L);
        m.put("b", false);
        Map<String, String> back = Json.parseFlatObject(Json.write(m), 1);
        assertEquals(Map.of("s", "tab\there \"quoted\" \\ back", "n", "-12", "b", "false"), back);
    }

    @Test
    void anAlertIsOneLineWithItsEventsInTheirSchema() {
        AlertOutput output = new AlertOutput(null, null, List.of(Apps.READING, Apps.RACK_ALERT, Apps.ORDER_EVENT));
        Alert critical = new Alert("critical", "r1", 1_740_816_015_000L, "rack r1: \"hot\"",
                List.of(new RackAlert("r1", 103.0, 1_740_816_005_000L), new RackAlert("r1", 106.5, 1_740_816_015_000L)));
        assertEquals("{\"rule\":\"critical\",\"key\":\"r1\",\"time\":\"2025-03-01T08:00:15Z\",\"ts\":1740816015000,"
                + "\"message\":\"rack r1: \\\"hot\\\"\",\"events\":[{\"rack\":\"r1\",\"temperature\":103.0,"
                + "\"time\":\"2025-03-01T08:00:05Z\"},{\"rack\":\"r1\",\"temperature\":106.5,"
                + "\"time\":\"2025-03-01T08:00:15Z\"}]}", output.toJson(critical));

        Alert breach = new Alert("sla-breach", "A-1", 3_600_000L, "late",
                List.of(new OrderEvent("A-1", Status.PLACED, 0L)));
        assertEquals("{\"rule\":\"sla-breach\",\"key\":\"A-1\",\"time\":\"1970-01-01T01:00:00Z\",\"ts\":3600000,"
                + "\"message\":\"late\",\"events\":[{\"order\":\"A-1\",\"status\":\"placed\","
                + "\"time\":\"1970-01-01T00:00:00Z\"}]}", output.toJson(breach));

        // an event no schema knows is written as its text rather than dropped
        Alert odd = new Alert("x", "k", 0, "m", List.of(new Reading("r", 1, 0), "other"));
        assertEquals("[{\"rack\":\"r\",\"temperature\":1.0,\"time\":\"1970-01-01T00:00:00Z\"},\"other\"]",
                output.toJson(odd).replaceAll(".*\"events\":(.*)}$", "$1"));
    }
}

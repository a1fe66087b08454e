package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.internal.output.SideOutputs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SideOutputsTest {

    @Test
    void routesEachTagToItsHandlerAndNamesMistakes() {
        SideOutputs outputs = new SideOutputs("PatternStream");
        OutputTag<String> alerts = new OutputTag<>("alerts", String.class);
        List<String> seen = new ArrayList<>();
        outputs.register(alerts, (value, ts) -> seen.add(value + "@" + ts));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> outputs.register(new OutputTag<>("alerts", String.class), (v, ts) -> { }));
        assertTrue(twice.getMessage().contains("already has a handler"), twice.getMessage());

        SideOutputs.Frozen frozen = outputs.freeze();
        outputs.register(new OutputTag<>("later", String.class), (v, ts) -> { });
        frozen.emit(alerts, "a", 5);
        assertEquals(List.of("a@5"), seen);

        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> frozen.emit(new OutputTag<>("later", String.class), "x", 1));
        assertTrue(missing.getMessage().contains("register one with PatternStream.sideOutput"), missing.getMessage());
        IllegalArgumentException wrongType = assertThrows(IllegalArgumentException.class,
                () -> frozen.emit(new OutputTag<>("alerts", Integer.class), 7, 1));
        assertTrue(wrongType.getMessage().contains("java.lang.String, not java.lang.Integer"), wrongType.getMessage());
    }
}

package io.cepheus.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The generated stream is reproducible and well-formed, and the demo finds exactly the planted fraud. */
class SampleStreamTest {

    private static final SampleStream STREAM = SampleStream.generate(SampleStream.DEFAULT_SEED);

    @Test
    void theDemoFindsExactlyThePlantedFraud() {
        List<Alert> alerts = EngineRun.alertsOf(STREAM.events(), FraudEvent::ts, FraudDetector::register);

        assertEquals(12 + 10, STREAM.plantedAlerts().size());
        assertEquals(STREAM.plantedAlerts(), alerts);
    }

    @Test
    void otherSeedsPlantFraudThatIsFoundToo() {
        for (long seed : new long[] {1L}) {
            SampleStream stream = SampleStream.generate(seed);
            List<Alert> alerts = EngineRun.alertsOf(stream.events(), FraudEvent::ts, FraudDetector::register);
            assertEquals(stream.plantedAlerts(), alerts, "seed " + seed);
        }
    }

    @Test
    void theSameSeedGivesTheSameStream() {
        SampleStream again = SampleStream.generate(SampleStream.DEFAULT_SEED);
        assertEquals(STREAM.events(), again.events());
        assertEquals(STREAM.plantedAlerts(), again.plantedAlerts());
    }

    @Test
    void aboutFiftyThousandEventsInTimeOrderWithinThreeHours() {
        List<FraudEvent> events = STREAM.events();
        assertTrue(events.size() >= 49_000 && events.size() <= 51_000, "size " + events.size());
        long end = SampleStream.START + SampleStream.LENGTH.toMillis();
        for (int i = 0; i < events.size(); i++) {
            long ts = events.get(i).ts();
            assertTrue(ts >= SampleStream.START && ts < end, "event " + i + " at " + ts);
            if (i > 0) {
                assertTrue(events.get(i - 1).ts() <= ts, "event " + i + " goes back in time");
            }
        }
    }
}

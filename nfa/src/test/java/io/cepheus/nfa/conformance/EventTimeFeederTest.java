package io.cepheus.nfa.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventTimeFeederTest {

    /** Records what the feeder releases as strings: the token, "wm@t" or "LATE token". */
    private static final class Recorder implements EventTimeFeeder.Target {
        final List<String> log = new ArrayList<>();

        @Override
        public void process(Ev event) {
            log.add(event.token());
        }

        @Override
        public void advanceTo(long watermark) {
            log.add("wm@" + watermark);
        }

        @Override
        public void late(Ev event) {
            log.add("LATE " + event.token());
        }
    }

    private static List<String> feed(String input, long... endWatermark) {
        Recorder r = new Recorder();
        EventTimeFeeder f = new EventTimeFeeder(r);
        for (InputToken t : CaseParser.parseEvents(input)) {
            if (t instanceof InputToken.Event e) {
                f.event(e.event());
            } else {
                f.watermark(((InputToken.Watermark) t).time());
            }
        }
        for (long w : endWatermark) {
            f.watermark(w);
        }
        return r.log;
    }

    @Test
    void releasesInTimeOrderStableForEqualTimestamps() {
        assertEquals(List.of("A1@1", "C3@2", "D4@2", "B2@3", "E5@3", "wm@" + Long.MAX_VALUE),
                feed("B2@3 A1@1 C3@2 E5@3 D4@2", Long.MAX_VALUE));
    }

    @Test
    void holdsEventsUntilAWatermarkPassesThem() {
        assertEquals(List.of("A1@1", "B2@2", "wm@2", "C4@4", "wm@4"), feed("C4@4 A1@1 B2@2 wm@2 wm@4 D9@9"));
    }

    @Test
    void eventsAtOrBeforeTheWatermarkAreLate() {
        assertEquals(List.of("A1@1", "wm@3", "LATE B3@3", "LATE C0@0", "D4@4", "wm@" + Long.MAX_VALUE),
                feed("A1@1 wm@3 B3@3 C0@0 D4@4", Long.MAX_VALUE));
    }

    @Test
    void watermarksNeverGoBack() {
        assertEquals(List.of("wm@5", "LATE A4@4", "B6@6", "wm@7"), feed("wm@5 wm@3 A4@4 wm@5 B6@6 wm@7"));
    }
}

package io.cepheus.runtime.window;

import static io.cepheus.runtime.window.WindowTestKit.engine;
import static io.cepheus.runtime.window.WindowTestKit.summing;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.window.WindowTestKit.Ev;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A watermark that passes several firing times of a key on the slice operator (the end of a bounded input, a
 * source back from idleness): the due windows fire time by time, at each time key after key, exactly as when the
 * watermark comes in steps, with the same state afterwards.
 */
class SlidingWatermarkJumpTest {

    private static final List<Ev> ELEMENTS = List.of(new Ev("a", 1, 100), new Ev("a", 2, 700),
            new Ev("a", 4, 1300), new Ev("b", 8, 200), new Ev("b", 16, 900));

    /** Runs keys a and b through sliding 2 s / 0.5 s windows with the given watermarks; returns the results. */
    private static List<String> run(long... watermarks) {
        CepEngine<Ev> engine = engine();
        List<String> out = new ArrayList<>();
        WindowResults<Ev> results = engine.keyBy(Ev::key)
                .window(SlidingEventTimeWindows.<Ev>of(Duration.ofMillis(2000), Duration.ofMillis(500)))
                .reduce(summing())
                .results((k, w, r, ts) -> out.add(k + " " + w + " " + r.value() + " @" + ts));
        Producer<Ev> in = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        ELEMENTS.forEach(in::send);
        for (long wm : watermarks) {
            in.watermark(wm);
            h.runUntilIdle();
            out.add("| " + wm + ": " + results.metrics().keys() + " keys, " + results.metrics().accumulators()
                    + " slices");
        }
        h.close();
        return out;
    }

    @Test
    void aJumpFiresTheDueWindowsTimeByTimeThenKeyByKey() {
        // a window without contents does not fire: a's [1500,3500) and b's [1000,3000) hold nothing
        assertEquals(List.of(
                "a [-1500,500) 1 @499", "b [-1500,500) 8 @499", "a [-1000,1000) 3 @999", "b [-1000,1000) 24 @999",
                "a [-500,1500) 7 @1499", "b [-500,1500) 24 @1499", "a [0,2000) 7 @1999", "b [0,2000) 24 @1999",
                "a [500,2500) 6 @2499", "b [500,2500) 16 @2499", "a [1000,3000) 4 @2999",
                "| " + Long.MAX_VALUE + ": 0 keys, 0 slices"), run(Long.MAX_VALUE));
    }

    @Test
    void aJumpGivesWhatStepsGive() {
        List<String> steps = run(499, 999, 1499, 1999, 2499, 2999, 3499, Long.MAX_VALUE);
        List<String> stepResults = new ArrayList<>();
        steps.stream().filter(line -> !line.startsWith("|")).forEach(stepResults::add);
        List<String> jump = run(Long.MAX_VALUE);
        assertEquals(stepResults, jump.subList(0, jump.size() - 1));
        assertEquals(steps.get(steps.size() - 1), jump.get(jump.size() - 1), "nothing left after the jump");
    }
}

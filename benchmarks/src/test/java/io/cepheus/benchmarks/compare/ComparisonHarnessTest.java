package io.cepheus.benchmarks.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.benchmarks.workloads.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The harness reports no speed unless both engines agree run after run and with the specification, alternates
 * the engines, and measures every round. Uses scripted contenders (no engine), so it is fast.
 */
class ComparisonHarnessTest {

    private static final RunResult RIGHT = new RunResult(10, 2, 0x1234);
    private static final Function<RunResult, List<String>> NO_SPEC = result -> List.of();

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final List<String> calls = new ArrayList<>();

    @Test
    void equalResultsGiveOneMeasurementPerMeasuredRoundAndAlternateTheEngines() throws Exception {
        Comparison comparison = new Comparison("fake", 1_000, "full stream", ResultKind.CEP,
                List.of(scripted("A", RIGHT)), scripted("B", RIGHT), false, NO_SPEC);

        ComparisonOutcome outcome = harness(1, 3).run(comparison);

        assertEquals(List.of("A", "B", "A", "B", "B", "A", "A", "B"), calls, "warm-up, then rounds alternating");
        assertEquals(3, outcome.cepheus().get(0).eventsPerSecond().length);
        assertEquals(3, outcome.flink().bytesPerEvent().length);
        assertEquals(RIGHT, outcome.flink().result());
        assertNull(outcome.cepheus().get(0).retainedBytes(), "not asked for");
        assertTrue(outcome.speedRatio() > 0);
        String table = ComparisonReport.table(List.of(outcome));
        assertTrue(table.contains("| fake | 1,000 events, full stream | A |"), table);
        assertTrue(table.contains("| 10 matches / 2 timeouts | yes (0000000000001234) |"), table);
    }

    @Test
    void severalCepheusContendersEachGetARowAndARatioAndTheOrderReversesInOddRounds() throws Exception {
        Comparison comparison = new Comparison("fake", 1_000, "full stream", ResultKind.WINDOW,
                List.of(scripted("A1", RIGHT), scripted("A2", RIGHT)), scripted("B", RIGHT), false, NO_SPEC);

        ComparisonOutcome outcome = harness(0, 2).run(comparison);

        assertEquals(List.of("A1", "A2", "B", "B", "A2", "A1"), calls);
        assertEquals(List.of("A1", "A2"), outcome.cepheus().stream().map(EngineStats::engine).toList());
        String table = ComparisonReport.table(List.of(outcome));
        assertEquals(2, table.split("×\\*\\*", -1).length - 1, "a ratio on each Cepheus row: " + table);
        assertTrue(table.contains("| 10 windows fired / 2 elements counted |"), table);
    }

    @Test
    void aComparisonCanRunFlinkInFewerRoundsWithoutWarmUp() throws Exception {
        Comparison comparison = new Comparison("fake", 1_000, "full stream", ResultKind.WINDOW,
                List.of(scripted("A", RIGHT)), scripted("B", RIGHT), false, NO_SPEC, 1);

        ComparisonOutcome outcome = harness(1, 3).run(comparison);

        assertEquals(List.of("A", "A", "B", "A", "A"), calls, "warm-up without B, B in the first measured round");
        assertEquals(3, outcome.cepheus().get(0).eventsPerSecond().length);
        assertEquals(1, outcome.flink().eventsPerSecond().length);
    }

    @Test
    void aSecondCepheusContenderThatDisagreesStopsTheRun() {
        RunResult wrong = new RunResult(11, 2, 0x1234);
        Comparison comparison = new Comparison("fake", 1_000, "full stream", ResultKind.CEP,
                List.of(scripted("A1", RIGHT), scripted("A2", wrong)), scripted("B", RIGHT), false, NO_SPEC);

        ResultMismatchException e = assertThrows(ResultMismatchException.class, () -> harness(1, 1).run(comparison));

        assertTrue(e.getMessage().contains("A2 produced " + wrong), e.getMessage());
    }

    @Test
    void aDifferentResultFromTheOtherEngineFailsBeforeAnySpeedIsReported() {
        RunResult wrong = new RunResult(10, 2, 0x1235);
        Comparison comparison = new Comparison("fake", 1_000, "full stream", ResultKind.CEP,
                List.of(scripted("A", RIGHT)), scripted("B", wrong), true, NO_SPEC);

        ResultMismatchException e = assertThrows(ResultMismatchException.class, () -> harness(0, 5).run(comparison));

        assertTrue(e.getMessage().contains("B produced " + wrong), e.getMessage());
        assertEquals(List.of("A", "B"), calls, "stops at the first mismatch");
    }

    @Test
    void aResultOffTheSpecificationFailsEvenWhenBothEnginesAgree() {
        Comparison comparison = new Comparison("fake", 1_000, "full stream", ResultKind.CEP,
                List.of(scripted("A", RIGHT)), scripted("B", RIGHT), false,
                result -> List.of("matches: expected 11, got 10"));

        ResultMismatchException e = assertThrows(ResultMismatchException.class, () -> harness(1, 1).run(comparison));

        assertTrue(e.getMessage().contains("A does not reproduce the specified result"), e.getMessage());
    }

    @Test
    void retainedHeapIsMeasuredWhileTheTrialIsStillReferenced() throws Exception {
        int megabytes = 64;
        Contender holding = new Contender() {
            @Override
            public String engine() {
                return "holding";
            }

            @Override
            public Trial prepare() {
                return new Trial() {
                    private byte[] state;

                    @Override
                    public RunResult feed() {
                        state = new byte[megabytes << 20];
                        state[state.length - 1] = 1;
                        return RIGHT;
                    }

                    @Override
                    public void close() {
                        state = null;
                    }
                };
            }
        };
        Comparison comparison = new Comparison("fake", 1_000, "full stream", ResultKind.CEP, List.of(holding),
                scripted("B", RIGHT), true, NO_SPEC);

        ComparisonOutcome outcome = harness(0, 1).run(comparison);

        long retained = outcome.cepheus().get(0).retainedBytes()[0];
        // the array itself, give or take what else the JVM allocated meanwhile
        assertTrue(retained >= (megabytes - 8L) << 20 && retained <= (megabytes + 8L) << 20,
                "retained " + retained + " bytes");
    }

    private ComparisonHarness harness(int warmups, int runs) {
        return new ComparisonHarness(warmups, runs, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    private Contender scripted(String name, RunResult result) {
        return new Contender() {
            @Override
            public String engine() {
                return name;
            }

            @Override
            public Trial prepare() {
                return new Trial() {
                    @Override
                    public RunResult feed() {
                        calls.add(name);
                        return result;
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
    }
}

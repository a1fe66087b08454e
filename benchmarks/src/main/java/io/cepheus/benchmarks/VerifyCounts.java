package io.cepheus.benchmarks;

import io.cepheus.benchmarks.workloads.*;
import io.cepheus.nfa.NfaCompiler;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the workloads once and compares counts and checksums with WORKLOADS.md. Exit status 0 when all
 * agree, 1 otherwise.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.VerifyCounts [--watermarks-every-1000] [W1 ...]
 * </pre>
 */
public final class VerifyCounts {

    private VerifyCounts() {
    }

    /**
     * @param args optional {@code --watermarks-every-1000} and workload names (default: all)
     */
    public static void main(String[] args) {
        WorkloadRunner.Watermarks watermarks = WorkloadRunner.Watermarks.AT_END;
        List<String> names = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--watermarks-every-1000")) {
                watermarks = WorkloadRunner.Watermarks.EVERY_1000_EVENTS;
            } else {
                names.add(arg);
            }
        }
        boolean allAgree = true;
        for (Workload workload : WorkloadSelection.parse(names)) {
            allAgree &= verify(workload, watermarks);
        }
        System.out.println(allAgree ? "ALL COUNTS AGREE with WORKLOADS.md" : "COUNTS DIFFER from WORKLOADS.md");
        System.exit(allAgree ? 0 : 1);
    }

    private static boolean verify(Workload workload, WorkloadRunner.Watermarks watermarks) {
        WorkloadStream stream = WorkloadGenerator.generate(workload);
        WorkloadRunner runner = new WorkloadRunner(NfaCompiler.compile(Workloads.pattern(workload)), watermarks);
        RunResult result = runner.run(stream);
        List<String> differences = result.differencesFrom(workload);
        System.out.printf("%s: %s -> %s%n", workload, result, differences.isEmpty() ? "OK" : "DIFFERS");
        for (String difference : differences) {
            System.out.println("    " + difference);
        }
        return differences.isEmpty();
    }
}

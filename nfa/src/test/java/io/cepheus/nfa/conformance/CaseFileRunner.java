package io.cepheus.nfa.conformance;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs every case of one {@code .case} file through the {@link SingleKeyDriver} and judges it against the
 * {@code .expected} file beside it with the {@link ConformanceComparator}.
 */
public final class CaseFileRunner {

    private CaseFileRunner() {
    }

    /**
     * @param caseFile a {@code NN-name.case} file
     * @return one verdict per case; a file that cannot be read or parsed yields one failing verdict for the
     *     file, and an expected section without a case yields a failing verdict for that section
     */
    public static List<CaseVerdict> run(Path caseFile) {
        return run(caseFile, SingleKeyDriver::run);
    }

    /**
     * @param caseFile a {@code NN-name.case} file
     * @param driver   runs one case and prints its output lines (the NFA driver, or another engine's)
     * @return one verdict per case, as {@link #run(Path)}
     */
    public static List<CaseVerdict> run(Path caseFile, java.util.function.Function<ConformanceCase, CaseOutcome> driver) {
        return run(caseFile, file -> CaseFile.read(file).cases(), ConformanceCase::name, driver);
    }

    /**
     * Judges the cases of a file in another case format (the rule cases, say) against the {@code .expected} file
     * beside it, as {@link #run(Path)} does.
     *
     * @param caseFile a {@code NN-name.case} file
     * @param reader   reads its cases (what it throws fails the whole file)
     * @param name     a case's name
     * @param driver   runs one case
     * @param <C>      the case type
     * @return one verdict per case, as {@link #run(Path)}
     */
    public static <C> List<CaseVerdict> run(Path caseFile, java.util.function.Function<Path, List<C>> reader,
            java.util.function.Function<C, String> name, java.util.function.Function<C, CaseOutcome> driver) {
        String fileName = caseFile.getFileName().toString();
        List<C> cases;
        try {
            cases = reader.apply(caseFile);
        } catch (RuntimeException e) {
            return List.of(CaseVerdict.fail(fileName, "(whole file)", "cannot parse: " + stackTrace(e)));
        }
        String baseName = fileName.endsWith(".case") ? fileName.substring(0, fileName.length() - ".case".length())
                : fileName;
        Path expectedFile = caseFile.resolveSibling(baseName + ".expected");
        Map<String, List<String>> expected;
        try {
            expected = Files.exists(expectedFile) ? new LinkedHashMap<>(ExpectedOutput.read(expectedFile)) : null;
        } catch (RuntimeException e) {
            return List.of(CaseVerdict.fail(fileName, "(whole file)", "cannot parse " + expectedFile + ": "
                    + stackTrace(e)));
        }
        List<CaseVerdict> out = new ArrayList<>();
        for (C c : cases) {
            CaseOutcome outcome = driver.apply(c);
            String caseName = name.apply(c);
            List<String> want = expected == null ? null : expected.remove(caseName);
            if (want == null) {
                out.add(CaseVerdict.fail(fileName, caseName, (expected == null ? "no file " + expectedFile
                        : "no '== " + caseName + "' section in " + expectedFile) + "; actual output:\n"
                        + String.join("\n", outcome.lines()) + crashReport(outcome)));
            } else if (outcome.crash() == null && ConformanceComparator.matches(want, outcome.lines())) {
                out.add(CaseVerdict.pass(fileName, caseName));
            } else {
                out.add(CaseVerdict.fail(fileName, caseName, diff(fileName, caseName, want, outcome.lines())
                        + crashReport(outcome)));
            }
        }
        if (expected != null) {
            for (String orphan : expected.keySet()) {
                out.add(CaseVerdict.fail(fileName, orphan, expectedFile + " has '== " + orphan
                        + "' but " + fileName + " has no such case"));
            }
        }
        return out;
    }

    /**
     * @param file     the case file name
     * @param name     the case name
     * @param expected the expected lines
     * @param actual   the actual lines
     * @return a unified diff of the canonical forms (MATCH / TIMEOUT runs sorted), ERROR lines equivalent
     */
    public static String diff(String file, String name, List<String> expected, List<String> actual) {
        return LineDiff.unified("expected " + file + " :: " + name, "actual",
                ConformanceComparator.canonical(expected), ConformanceComparator.canonical(actual),
                ConformanceComparator::equivalent);
    }

    private static String crashReport(CaseOutcome outcome) {
        return outcome.crash() == null ? "" : "\n" + stackTrace(outcome.crash());
    }

    private static String stackTrace(Throwable t) {
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        return sw.toString();
    }
}

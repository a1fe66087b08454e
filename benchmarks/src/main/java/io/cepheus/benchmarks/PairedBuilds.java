package io.cepheus.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Compares two builds of Cepheus on one benchmark, run by run: two JVMs, one per build's benchmarks jar, kept alive
 * side by side, each told in turn to run the benchmark once ({@link PairedBuildRun}), alternating which goes first.
 * Reports each build's median events/s (thread CPU time) and the median over rounds of new / old, with how many
 * rounds the new build won.
 *
 * <p>Why: on a shared VM a run's speed follows the machine's state (its share of the L3 cache, other tenants) by
 * ±30% over seconds to minutes, more than most changes are worth. Runs of separate processes one after the other
 * see different states; two runs back to back within the same second see nearly the same, so their ratio measures
 * the code. A 10% change that 10 pairs of separate processes showed only as "7 of 10 faster" came out here as a
 * median ratio of 1.11, faster in 29 of 32 rounds.
 *
 * <p>Both builds run this jar's {@link PairedBuildRun} (copied next to the other jar, ahead of it on the class
 * path), so the driver is the same and the older build need not have it; it uses only API that older builds have.
 * Each round's result fingerprints (counts, checksums) must agree between the builds, or the comparison stops.
 *
 * <p>With {@code --vs SPEC}, the new side runs that spec instead: the same pairing then compares two ways of running
 * one build (give its jar twice), each in a JVM of its own as a service would run it, e.g. two shards against one
 * ({@code --vs threads:W1/2 threads:W1/1}) or the engine against the bare NFA ({@code --vs threads:W2/1 bare:W2}).
 * The two specs' results must still agree, unless {@code --results-differ} says that they compute different things
 * (e.g. sliding against tumbling windows, {@code --vs window:600/10 --results-differ window:10/10}: new/old is then
 * tumbling's time per element over sliding's); each side's results must then stay the same from round to round.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.cepheus.benchmarks.PairedBuilds \
 *      [--rounds 16] [--warmup 15] [--jvm "-Xms2g -Xmx2g -XX:+AlwaysPreTouch"] [--vs NEW_SPEC [--results-differ]] \
 *      engine:W1 OLD.jar NEW.jar
 * </pre>
 * Specs: {@code engine:Wn}, {@code bare:Wn}, {@code sorted:Wn} (the bare NFA on the stream sorted by key: state
 * in the cache), {@code threads:Wn/SHARDS}, {@code window:SIZE/SLIDE} (seconds; see {@link PairedBuildRun}).
 */
public final class PairedBuilds {

    private PairedBuilds() {
    }

    /**
     * @param args options, then the spec, the old build's jar and the new build's jar
     * @throws IOException if a child JVM cannot be started or talked to
     */
    public static void main(String[] args) throws IOException {
        int rounds = 16;
        // Rounds run and thrown away first, so that both sides are measured compiled. 3 were too few: the JIT was
        // still compiling the engine's paths on its own threads for ~10 runs of W3 (200,000 events each). Those
        // threads took a core from two busy shard threads, but not from one shard, which leaves a core free. So
        // threads:W3/2 over threads:W3/1 came out at 1.35 (min 0.72) after 3 warm-up rounds, and 1.87 (min 1.68)
        // after 15.
        int warmup = 15;
        // the heap touched up front: with 2 GB committed but untouched, G1 kept handing out fresh young regions for
        // dozens of runs, and first-touch page faults took ~13% of a sliding-window run's samples (sliding
        // allocates ~4x what tumbling does per element, so they also skewed that comparison)
        String jvm = "-Xms2g -Xmx2g -XX:+AlwaysPreTouch";
        String newSpec = null;
        boolean resultsDiffer = false;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--jvm" -> jvm = args[++i];
                case "--vs" -> newSpec = args[++i];
                case "--results-differ" -> resultsDiffer = true;
                default -> rest.add(args[i]);
            }
        }
        if (rest.size() != 3 || rounds < 1 || warmup < 0 || resultsDiffer && newSpec == null) {
            throw new IllegalArgumentException("usage: PairedBuilds [--rounds N] [--warmup N] [--jvm \"ARGS\"]"
                    + " [--vs NEW_SPEC [--results-differ]] SPEC OLD.jar NEW.jar");
        }
        String oldSpec = rest.get(0);
        if (newSpec == null) {
            newSpec = oldSpec;
        }
        Path driver = driverDirectory();
        try (Child old = new Child(jvm, driver, rest.get(1), oldSpec);
                Child young = new Child(jvm, driver, rest.get(2), newSpec)) {
            double[] oldRates = new double[rounds];
            double[] newRates = new double[rounds];
            double[] ratios = new double[rounds];
            int newWins = 0;
            String oldResults = null;
            String newResults = null;
            for (int r = -warmup; r < rounds; r++) {
                boolean oldFirst = (r & 1) == 0;
                String[] first = (oldFirst ? old : young).runOnce();
                String[] second = (oldFirst ? young : old).runOnce();
                String[] o = oldFirst ? first : second;
                String[] n = oldFirst ? second : first;
                if (resultsDiffer) {
                    oldResults = oldResults == null ? o[1] : oldResults;
                    newResults = newResults == null ? n[1] : newResults;
                    if (!o[1].equals(oldResults) || !n[1].equals(newResults)) {
                        throw new IllegalStateException("a side's results changed between rounds: old " + o[1] + " after "
                                + oldResults + ", new " + n[1] + " after " + newResults);
                    }
                } else if (!o[1].equals(n[1])) {
                    throw new IllegalStateException("the results disagree: old " + o[1] + ", new " + n[1]);
                }
                if (r >= 0) {
                    oldRates[r] = Double.parseDouble(o[0]);
                    newRates[r] = Double.parseDouble(n[0]);
                    ratios[r] = newRates[r] / oldRates[r];
                    newWins += ratios[r] > 1 ? 1 : 0;
                    System.out.printf(Locale.ROOT, "round %2d: old %,.0f  new %,.0f events/s  new/old %.3f%n", r,
                            oldRates[r], newRates[r], ratios[r]);
                }
            }
            System.out.printf(Locale.ROOT, "%s over %d rounds: old median %,.0f, new median %,.0f events/s;"
                    + " new/old median %.3f (min %.3f, max %.3f), new faster in %d of %d (results: %s)%n",
                    oldSpec.equals(newSpec) ? oldSpec : newSpec + " (new) vs " + oldSpec + " (old)", rounds,
                    median(oldRates), median(newRates), median(ratios), min(ratios),
                    max(ratios), newWins, rounds, resultsDiffer ? "each side's the same every round" : "equal every round");
        }
    }

    /** Writes this jar's {@link PairedBuildRun} class file into a fresh directory, to put ahead of either jar. */
    private static Path driverDirectory() throws IOException {
        Path dir = Files.createTempDirectory("cepheus-paired");
        Path file = dir.resolve("io/cepheus/benchmarks/PairedBuildRun.class");
        Files.createDirectories(file.getParent());
        try (InputStream in = PairedBuilds.class.getResourceAsStream("PairedBuildRun.class")) {
            if (in == null) {
                throw new IOException("PairedBuildRun.class is not on this class path");
            }
            Files.copy(in, file);
        }
        file.toFile().deleteOnExit();
        file.getParent().toFile().deleteOnExit();
        return dir;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double min(double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    /** One build's JVM, running {@link PairedBuildRun}; owned by the main thread. */
    private static final class Child implements AutoCloseable {

        private final Process process;
        private final PrintWriter commands;
        private final BufferedReader answers;
        private final String jar;

        Child(String jvm, Path driver, String jar, String spec) throws IOException {
            this.jar = jar;
            if (!Files.isRegularFile(Path.of(jar))) {
                throw new IOException("no such jar: " + jar);
            }
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(Arrays.asList(jvm.trim().split("\\s+")));
            command.add("-cp");
            command.add(driver + java.io.File.pathSeparator + jar);
            command.add(PairedBuildRun.class.getName());
            command.add(spec);
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
            answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /** @return {rate, result fingerprint} of one run */
        String[] runOnce() throws IOException {
            commands.println("run");
            String line = answers.readLine();
            while (line != null && !line.startsWith("rate ")) {
                System.err.println(jar + ": " + line); // anything else the build printed
                line = answers.readLine();
            }
            if (line == null) {
                throw new IOException("the JVM on " + jar + " stopped (see its output above)");
            }
            String[] parts = line.split(" ", 3);
            return new String[] {parts[1], parts.length > 2 ? parts[2] : ""};
        }

        @Override
        public void close() {
            commands.println("quit");
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroy();
            }
        }
    }
}

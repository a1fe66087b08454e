package io.cepheus.nfa.conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a conformance suite's cases are. Each suite has a folder under the repository's {@code conformance/}
 * ({@code cep}, {@code windows}, {@code rules}) and a system property that points it elsewhere
 * ({@code -Dcepheus.conformance.dir} for this one). A property, if given, is used as is, so a wrong directory
 * fails instead of silently falling back; a relative path is looked up from the working directory, then from its
 * parent (Maven runs tests in the module's folder, a user types paths from the project root). Without it the
 * suite's folder is looked up from the working directory and from its parent, the project root. Whatever is
 * chosen, a missing directory fails the suite; it is never skipped.
 *
 * @param chosen the directory to run (it may not exist: the caller fails then, naming it)
 * @param tried  every candidate considered, in order, for the failure message
 */
public record ConformanceDirectory(Path chosen, List<Path> tried) {

    /** The system property naming the CEP suite's case directory explicitly. */
    public static final String DIR_PROPERTY = "cepheus.conformance.dir";
    /** The CEP suite's folder under the repository's {@code conformance/}. */
    public static final String SUITE = "cep";

    /** Copies the list. */
    public ConformanceDirectory {
        tried = List.copyOf(tried);
    }

    /**
     * @param property the suite's property, named in the message
     * @return the chosen directory
     * @throws IllegalStateException if it does not exist (a missing suite fails, it is never skipped)
     */
    public Path requireExisting(String property) {
        if (!Files.isDirectory(chosen)) {
            throw new IllegalStateException("conformance directory " + chosen + " does not exist (tried " + tried
                    + "; the repository keeps its suites under conformance/, -D" + property + "=PATH runs others)");
        }
        return chosen;
    }

    /** @return the CEP suite's directory, chosen by the current system properties and working directory */
    public static ConformanceDirectory fromSystem() {
        return locate(System.getProperty(DIR_PROPERTY), Path.of("").toAbsolutePath(), SUITE);
    }

    /**
     * @param explicitDir the value of the suite's own property, or null
     * @param workingDir  the directory relative paths start from
     * @param suite       the suite's folder under {@code conformance/}
     * @return the choice and the candidates tried
     */
    public static ConformanceDirectory locate(String explicitDir, Path workingDir, String suite) {
        if (explicitDir != null && !explicitDir.isBlank()) {
            Path fromHere = workingDir.resolve(explicitDir.trim()).normalize();
            Path parent = workingDir.getParent();
            if (Files.isDirectory(fromHere) || parent == null || Path.of(explicitDir.trim()).isAbsolute()) {
                return new ConformanceDirectory(fromHere, List.of(fromHere));
            }
            Path fromRoot = parent.resolve(explicitDir.trim()).normalize();
            return new ConformanceDirectory(Files.isDirectory(fromRoot) ? fromRoot : fromHere,
                    List.of(fromHere, fromRoot));
        }
        List<Path> candidates = new ArrayList<>();
        candidates.add(workingDir.resolve("conformance").resolve(suite).normalize());
        if (workingDir.getParent() != null) {
            candidates.add(workingDir.getParent().resolve("conformance").resolve(suite).normalize());
        }
        for (Path p : candidates) {
            if (Files.isDirectory(p)) {
                return new ConformanceDirectory(p, candidates);
            }
        }
        return new ConformanceDirectory(candidates.get(candidates.size() - 1), candidates);
    }
}

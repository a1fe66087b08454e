package io.cepheus.nfa.conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the conformance cases are: {@code -Dcepheus.conformance.dir} if given (used as is, so a wrong
 * directory fails instead of silently falling back; a relative path is looked up from the working directory,
 * then from its parent, the project root), else the first existing of
 * {@code ${cepheus.shared.dir}/conformance} (set by the surefire configuration),
 * {@code ../shared/conformance} and {@code ../../shared/conformance} relative to the working directory.
 * Other suites with their own folder of the shared material and their own property (the window suite's
 * {@code conformance-windows}) find it the same way, through {@link #locate(String, String, Path, String)}.
 *
 * @param chosen the directory to run (it may not exist: the caller fails then, naming it)
 * @param tried  every candidate considered, in order, for the failure message
 */
public record ConformanceDirectory(Path chosen, List<Path> tried) {

    /** The system property naming the case directory explicitly. */
    public static final String DIR_PROPERTY = "cepheus.conformance.dir";
    /** The system property naming the shared material directory (each suite has its folder in it). */
    public static final String SHARED_PROPERTY = "cepheus.shared.dir";
    /** The CEP suite's folder of the shared material. */
    public static final String FOLDER = "conformance";

    /** Copies the list. */
    public ConformanceDirectory {
        tried = List.copyOf(tried);
    }

    /** @return the directory chosen by the current system properties and working directory */
    public static ConformanceDirectory fromSystem() {
        return locate(System.getProperty(DIR_PROPERTY), System.getProperty(SHARED_PROPERTY),
                Path.of("").toAbsolutePath());
    }

    /**
     * @param explicitDir the value of {@value #DIR_PROPERTY}, or null
     * @param sharedDir   the value of {@value #SHARED_PROPERTY}, or null
     * @param workingDir  the directory relative paths start from
     * @return the choice and the candidates tried
     */
    public static ConformanceDirectory locate(String explicitDir, String sharedDir, Path workingDir) {
        return locate(explicitDir, sharedDir, workingDir, FOLDER);
    }

    /**
     * @param explicitDir the value of the suite's own property, or null
     * @param sharedDir   the value of {@value #SHARED_PROPERTY}, or null
     * @param workingDir  the directory relative paths start from
     * @param folder      the suite's folder of the shared material
     * @return the choice and the candidates tried
     */
    public static ConformanceDirectory locate(String explicitDir, String sharedDir, Path workingDir, String folder) {
        if (explicitDir != null && !explicitDir.isBlank()) {
            // tests run in the module's folder, but a user types the path from the project root: try both
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
        if (sharedDir != null && !sharedDir.isBlank()) {
            candidates.add(workingDir.resolve(sharedDir.trim()).resolve(folder).normalize());
        }
        candidates.add(workingDir.resolve("../shared").resolve(folder).normalize());
        candidates.add(workingDir.resolve("../../shared").resolve(folder).normalize());
        for (Path p : candidates) {
            if (Files.isDirectory(p)) {
                return new ConformanceDirectory(p, candidates);
            }
        }
        return new ConformanceDirectory(candidates.get(0), candidates);
    }
}

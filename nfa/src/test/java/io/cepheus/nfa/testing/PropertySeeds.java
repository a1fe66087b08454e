package io.cepheus.nfa.testing;

/**
 * The seed convention of every property test: {@code -Dcepheus.seed=N} overrides a test's fixed default, and a
 * failure starts with the seed and the command that reruns it. Shared through the nfa test-jar (in its own
 * package: test classes in io.cepheus.nfa would be hidden behind the nfa module from other modules).
 */
public final class PropertySeeds {

    private PropertySeeds() {
    }

    /**
     * @param defaultSeed the test's fixed seed
     * @return {@code cepheus.seed} if set, else the default
     */
    public static long seed(long defaultSeed) {
        return Long.getLong("cepheus.seed", defaultSeed);
    }

    /**
     * Runs a QuickTheories check and puts the seed and how to rerun it at the top of any failure.
     *
     * @param seed   the seed the check runs with
     * @param module the Maven module of the test, for the rerun command
     * @param test   the test class name, for the rerun command
     * @param check  the property check
     */
    public static void reportingSeed(long seed, String module, String test, Runnable check) {
        try {
            check.run();
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("property failed with cepheus.seed=" + seed + " (rerun: mvn -pl " + module
                    + " test -Dtest=" + test + " -Dcepheus.seed=" + seed + ")\n" + e.getMessage(), e);
        }
    }
}

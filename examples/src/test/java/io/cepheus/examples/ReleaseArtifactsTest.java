package io.cepheus.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cepheus.nfa.NfaCompiler;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a user's build receives from Cepheus: each published jar names its module, version and license in its
 * manifest and carries LICENSE and NOTICE, and the BOM manages exactly the published modules. The jars are the
 * ones this module depends on, as a user's build would: under {@code mvn verify} (and CI) the packaged jars of
 * the reactor; a build that stops before packaging has only class folders, and then the manifest checks are
 * skipped (the BOM check still runs).
 */
class ReleaseArtifactsTest {

    private static Path codeSource(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void eachPublishedJarNamesItsModuleVersionAndLicenseAndCarriesLicenseAndNotice() throws Exception {
        Class<?>[] published = {Pattern.class, NfaCompiler.class, CepEngine.class, io.cepheus.rules.Rules.class,
            io.cepheus.micrometer.CepheusMetrics.class, io.cepheus.kafka.CepProcessorSupplier.class};
        String[] modules = {"io.cepheus.pattern", "io.cepheus.nfa", "io.cepheus.runtime", "io.cepheus.rules",
            "io.cepheus.micrometer", "io.cepheus.kafka"};
        assumeTrue(Files.isRegularFile(codeSource(CepEngine.class)), "the modules are class folders, not jars");
        for (int i = 0; i < published.length; i++) {
            Path jar = codeSource(published[i]);
            try (JarFile file = new JarFile(jar.toFile())) {
                Attributes main = file.getManifest().getMainAttributes();
                assertEquals(modules[i], main.getValue("Automatic-Module-Name"), jar + ": module name");
                if (modules[i].equals("io.cepheus.kafka")) {
                    // Kafka's jars carry no module names, so a module-info could only require names made up from
                    // their file names: this module stays automatic, named by its manifest
                    assertNull(file.getJarEntry("module-info.class"), jar + ": no module-info");
                } else {
                    try (var descriptor = file.getInputStream(file.getJarEntry("module-info.class"))) {
                        assertEquals(modules[i], ModuleDescriptor.read(descriptor).name(), jar + ": module-info");
                    }
                }
                assertNotNull(main.getValue("Implementation-Version"), jar + ": version");
                assertTrue(jar.getFileName().toString().contains(main.getValue("Implementation-Version")),
                        jar + ": the manifest's version is the artifact's");
                assertEquals("Apache-2.0", main.getValue("Bundle-License"), jar + ": license");
                assertNotNull(file.getJarEntry("META-INF/LICENSE"), jar + ": LICENSE");
                assertNotNull(file.getJarEntry("META-INF/NOTICE"), jar + ": NOTICE");
            }
        }
    }

    @Test
    void theBomManagesExactlyThePublishedModules() throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent();
        Set<String> published = new TreeSet<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(p -> Files.isRegularFile(p.resolve("pom.xml"))).toList()) {
                String pom = Files.readString(module.resolve("pom.xml"));
                boolean jar = !pom.contains("<packaging>pom</packaging>");
                boolean skipped = pom.contains("<maven.deploy.skip>true</maven.deploy.skip>");
                if (jar && !skipped) {
                    published.add(artifactId(pom));
                }
            }
        }
        String bom = Files.readString(root.resolve("bom/pom.xml"));
        Set<String> managed = new TreeSet<>();
        Matcher m = java.util.regex.Pattern.compile(
                "<artifactId>(cepheus-[a-z-]+)</artifactId>\\s*<version>\\$\\{project.version}</version>").matcher(bom);
        while (m.find()) {
            managed.add(m.group(1));
        }
        assertEquals(Set.of("cepheus-nfa", "cepheus-pattern-api", "cepheus-runtime", "cepheus-rules",
                "cepheus-micrometer", "cepheus-kafka-streams"), published, "the modules that deploy");
        assertEquals(published, managed, "the BOM lists every published module, at the build's version");
        assertTrue(!bom.contains("<parent>"), "the BOM has no parent, so it imports nothing of the build's own");
    }

    /** @return the module's own artifactId: the first one after its parent element */
    private static String artifactId(String pom) {
        String afterParent = pom.contains("</parent>") ? pom.substring(pom.indexOf("</parent>")) : pom;
        Matcher m = java.util.regex.Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(afterParent);
        assertTrue(m.find(), "no artifactId");
        return m.group(1);
    }
}

package io.cepheus.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The page {@code cepheus explain --html} writes, loaded in a real browser: headless Chromium (Debian's
 * {@code chromium}, which {@code .ci/run} installs when missing) runs the page's script and dumps the DOM it ends
 * with, and takes a screenshot. The DOM has one bar per partial match of every trace, each with the outcome and label
 * the trace gives; the screenshot is kept under {@code target/} (the README shows it).
 */
class ExplainPageBrowserTest {

    private static final Path OUT = Path.of("target", "explain");

    @Test
    void chromiumShowsOneBarPerPartialMatchWithHowItEnded() throws Exception {
        Files.createDirectories(OUT);
        Path page = OUT.resolve("failed-logins.html").toAbsolutePath();
        CepheusTest.Result r = CepheusTest.runWithInput("", "explain", "--rules", "rules/failed-logins", "--input",
                "src/main/resources/samples/failed-logins.csv", "--key", "user=bob,erin", "--time", "time", "--html",
                page.toString());
        assertEquals(0, r.status(), r.err());
        String html = Files.readString(page, StandardCharsets.UTF_8);
        assertTrue(!html.contains("http://") || html.indexOf("http://") == html.indexOf("http://www.w3.org/2000/svg"),
                "nothing from the network: the only address is the SVG namespace");
        assertTrue(!html.contains("<script src") && !html.contains("<link"), "self-contained");

        String dom = chromium("--dump-dom", page.toUri().toString());
        assertTrue(dom.contains("data-ready=\"true\""), "the page's script ran:\n" + head(dom));
        // bob, strict: two runs broken by his success at 08:01:20, then three that the end of input timed out
        assertEquals(List.of("condition false", "condition false", "timed out", "timed out", "timed out"),
                outcomes(dom, "bob", "failed-logins-strict"));
        // bob, relaxed: the success is skipped; the first run completes and the skip strategy prunes the others
        assertEquals(List.of("completed", "pruned", "pruned", "pruned", "pruned"),
                outcomes(dom, "bob", "failed-logins-relaxed"));
        assertEquals(List.of("timed out", "timed out", "condition false", "condition false", "condition false"),
                outcomes(dom, "erin", "failed-logins-strict"));
        assertEquals("20", attribute(dom, "body", "data-bars"), "one bar per partial match, four traces of five");
        assertTrue(dom.contains("#1 condition false at 'failed' (strict contiguity)"), "labels beside the bars");
        assertEquals(24, count(dom, "<circle class=\"event"), "bob's six events and erin's six, in each rule's trace");

        Path png = OUT.resolve("failed-logins.png");
        Files.deleteIfExists(png);
        chromium("--screenshot=" + png.toAbsolutePath(), "--window-size=1200,1300", page.toUri().toString());
        byte[] image = Files.readAllBytes(png);
        assertTrue(image.length > 20_000, "a screenshot of the page, not a blank one: " + image.length + " bytes");
        assertEquals((byte) 0x89, image[0]);
        assertEquals('P', image[1]);
    }

    /** The outcomes of one trace's partial matches, in the order they began. */
    private static List<String> outcomes(String dom, String key, String rule) {
        int at = dom.indexOf("data-key=\"" + key + "\" data-rule=\"" + rule + "\"");
        assertTrue(at >= 0, "no section for " + key + " / " + rule);
        int end = dom.indexOf("</section>", at);
        Matcher m = Pattern.compile("class=\"partial-match [^\"]*\" data-pm=\"(\\d+)\" data-outcome=\"([^\"]*)\"")
                .matcher(dom.substring(at, end));
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(2));
            assertTrue(dom.substring(at, end).contains(">#" + m.group(1) + " "), "label of #" + m.group(1));
        }
        return out;
    }

    private static String attribute(String dom, String tag, String name) {
        Matcher m = Pattern.compile("<" + tag + "[^>]*\\s" + name + "=\"([^\"]*)\"").matcher(dom);
        assertTrue(m.find(), "no " + name + " on " + tag);
        return m.group(1);
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    private static String head(String s) {
        return s.length() > 2_000 ? s.substring(0, 2_000) : s;
    }

    /** Runs headless Chromium with the flags this machine's closed network needs; returns what it printed. */
    private static String chromium(String... args) throws IOException, InterruptedException {
        Path binary = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
        assertTrue(Files.isExecutable(binary), binary + " is missing: install Debian's chromium package (.ci/run does)"
                + " or point CHROMIUM at a Chromium binary");
        Path profile = Files.createTempDirectory("cepheus-chromium");
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        Path output = Files.createTempFile("cepheus-chromium", ".out");
        Process p = new ProcessBuilder(command).redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        // a bounded wait on a real process, as on any external program a test drives
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "Chromium did not finish in 120 s");
        assertEquals(0, p.exitValue(), "Chromium failed: " + String.join(" ", command));
        return Files.readString(output, StandardCharsets.UTF_8);
    }
}

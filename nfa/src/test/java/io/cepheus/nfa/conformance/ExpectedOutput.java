package io.cepheus.nfa.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An {@code NN-name.expected} file split into its cases: {@code == <name>} headers and the lines below. */
public final class ExpectedOutput {

    private ExpectedOutput() {
    }

    /**
     * @param file an {@code .expected} file
     * @return case name to its lines, header first, in file order
     * @throws CaseSyntaxException if a line comes before the first header or a case appears twice
     */
    public static Map<String, List<String>> read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.getFileName().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * @param text   the content of an {@code .expected} file
     * @param source its name, for messages
     * @return case name to its lines, header ({@code == <name>}) first, in file order; blank lines and
     *     trailing whitespace dropped
     */
    public static Map<String, List<String>> parse(String text, String source) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        List<String> current = null;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].stripTrailing();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("== ")) {
                String name = line.substring(3).trim();
                current = new ArrayList<>();
                current.add("== " + name);
                if (out.put(name, current) != null) {
                    throw new CaseSyntaxException(source + ":" + (i + 1) + ": case '" + name + "' twice");
                }
            } else if (current == null) {
                throw new CaseSyntaxException(source + ":" + (i + 1) + ": output before the first '== <case>'");
            } else {
                current.add(line);
            }
        }
        out.replaceAll((k, v) -> Collections.unmodifiableList(v));
        return Collections.unmodifiableMap(out);
    }
}

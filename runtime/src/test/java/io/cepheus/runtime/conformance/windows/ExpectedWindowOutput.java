package io.cepheus.runtime.conformance.windows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads an {@code .expected} file: {@code == <case name>} headers, each followed by that case's lines. */
public final class ExpectedWindowOutput {

    private ExpectedWindowOutput() {
    }

    /**
     * @param text   the file's text
     * @param source the file name, for messages
     * @return each case's lines, by case name, in file order
     */
    public static Map<String, List<String>> parse(String text, String source) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : text.split("\r?\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("== ")) {
                current = new ArrayList<>();
                out.put(line.substring(3).trim(), current);
            } else if (current == null) {
                throw new IllegalArgumentException(source + ": output line before any '== name' header: " + line);
            } else {
                current.add(line.trim());
            }
        }
        return out;
    }
}

package io.cepheus.nfa.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A parsed {@code NN-name.case} file: its cases in file order.
 *
 * @param source where it was read from (for messages)
 * @param cases  the cases, in file order
 */
public record CaseFile(Path source, List<ConformanceCase> cases) {

    /** Copies the case list. */
    public CaseFile {
        cases = List.copyOf(cases);
    }

    /**
     * @param file a {@code .case} file
     * @return its cases
     * @throws CaseSyntaxException if the file does not follow FORMAT.md
     * @throws UncheckedIOException if it cannot be read
     */
    public static CaseFile read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            return new CaseFile(file, CaseParser.parse(text, file.getFileName().toString()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** @return the file's name without the {@code .case} extension */
    public String baseName() {
        String n = source.getFileName().toString();
        return n.endsWith(".case") ? n.substring(0, n.length() - ".case".length()) : n;
    }
}

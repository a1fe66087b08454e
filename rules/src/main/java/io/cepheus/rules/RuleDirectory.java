package io.cepheus.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A folder of rule files ({@code *.json}), watched by polling: each {@link #poll()} reads what changed since the last
 * one and says what to do with the running rule set. A new or changed file is read and compiled (validated) before
 * it is reported; one that does not compile is reported as {@link Rejected} (file, rule id, JSON path, message) and
 * the version running from it stays; a deleted file removes its rule. The first poll reports every valid file: the
 * set to start with.
 *
 * <pre>{@code
 * RuleDirectory<Pattern<Payment>> dir = RuleDirectory.open(Path.of("rules"), rule -> rule.compile(Payment.class));
 * for (RuleDirectory.Change<Pattern<Payment>> c : dir.poll()) {             // at start, then every few seconds
 *     if (c instanceof RuleDirectory.Put<Pattern<Payment>> put) {
 *         live.put(put.rule().id(), put.rule().version(), put.compiled());
 *     } else if (c instanceof RuleDirectory.Removed<Pattern<Payment>> removed) {
 *         live.remove(removed.id());
 *     } else {
 *         log.warn(((RuleDirectory.Rejected<Pattern<Payment>>) c).problem().getMessage());
 *     }
 * }
 * }</pre>
 *
 * <p>Choices: a changed file must raise its rule's version (a rule that changes under the same version is rejected,
 * as the rule set would refuse it); a file whose id changes removes the old id and puts the new one; a second file
 * holding an id another file holds is rejected; a file counts as changed when its bytes did (so no file system's
 * timestamp resolution can hide a change), and a rejected file is reported once, until it changes again. Names not ending in {@code .json} and hidden files
 * (editors' temporary copies) are ignored. Given a single file instead of a folder, it watches that file alone.
 *
 * <p>Not thread-safe: poll from one thread (a scheduler's, say); the changes it returns may be applied from there.
 *
 * @param <P> what a rule compiles to (a {@code Pattern} of the application's event type)
 */
public final class RuleDirectory<P> {

    /** What one poll found. */
    public sealed interface Change<P> permits Put, Removed, Rejected {
        /** @return the file it comes from */
        Path file();
    }

    /**
     * A rule to put in force: a new file, or a changed file with a higher version.
     *
     * @param file     the file
     * @param rule     the rule
     * @param compiled what it compiled to
     * @param <P>      the compiled type
     */
    public record Put<P>(Path file, Rule rule, P compiled) implements Change<P> {
    }

    /**
     * A rule to remove: its file was deleted, or now holds another rule id.
     *
     * @param file the file
     * @param id   the rule's id
     * @param <P>  the compiled type
     */
    public record Removed<P>(Path file, String id) implements Change<P> {
    }

    /**
     * A new or changed file that is not a valid rule; the version running from it (if any) stays.
     *
     * @param file    the file
     * @param problem what is wrong: a {@link RuleFormatException} (rule id, JSON path, line and column) or, for a file
     *                that cannot be read, an {@link UncheckedIOException}
     * @param <P>     the compiled type
     */
    public record Rejected<P>(Path file, RuntimeException problem) implements Change<P> {
    }

    /** What is known of one file: its content when last read, and the rule running from it (if any). */
    private record Seen(byte[] content, Rule running, boolean rejected) {
    }

    private final Path root;
    private final Function<Rule, P> compile;
    private final Map<Path, Seen> seen = new TreeMap<>();

    private RuleDirectory(Path root, Function<Rule, P> compile) {
        this.root = root;
        this.compile = compile;
    }

    /**
     * @param folderOrFile a folder of {@code *.json} rule files, or one rule file
     * @param compile      compiles a rule for the application's events (what it throws, a
     *                     {@link RuleFormatException} usually, rejects the file)
     * @param <P>          what a rule compiles to
     * @return the watcher; nothing is read until the first {@link #poll()}
     */
    public static <P> RuleDirectory<P> open(Path folderOrFile, Function<Rule, P> compile) {
        return new RuleDirectory<>(Objects.requireNonNull(folderOrFile, "folderOrFile"),
                Objects.requireNonNull(compile, "compile"));
    }

    /** @return the rules running from the files, by id, as of the last poll */
    public Map<String, Rule> running() {
        Map<String, Rule> out = new TreeMap<>();
        for (Seen s : seen.values()) {
            if (s.running() != null) {
                out.put(s.running().id(), s.running());
            }
        }
        return out;
    }

    /**
     * Reads what changed since the last poll.
     *
     * @return the changes, in file-name order (removals of deleted files first)
     * @throws UncheckedIOException if the folder cannot be listed
     */
    public List<Change<P>> poll() {
        List<Path> now = list();
        List<Change<P>> out = new ArrayList<>();
        for (Path gone : new ArrayList<>(seen.keySet())) {
            if (!now.contains(gone)) {
                Seen s = seen.remove(gone);
                if (s.running() != null) {
                    out.add(new Removed<>(gone, s.running().id()));
                }
            }
        }
        for (Path file : now) {
            byte[] content;
            try {
                content = Files.readAllBytes(file);
            } catch (NoSuchFileException deletedMeanwhile) {
                continue; // the next poll sees it gone
            } catch (IOException e) {
                out.add(new Rejected<>(file, new UncheckedIOException("cannot read " + file + ": " + e.getMessage(),
                        e)));
                continue;
            }
            Seen before = seen.get(file);
            if (before != null && Arrays.equals(before.content(), content)) {
                continue; // unchanged since it was last read (compared by content: no clock's resolution matters)
            }
            Rule running = before == null ? null : before.running();
            Rule rule;
            P compiled;
            try {
                rule = Rules.parse(content, file);
                String holder = holderOf(rule.id(), file);
                if (holder != null) {
                    throw new RuleFormatException(rule.id(), file.toString(), "id", -1, -1, "rule '" + rule.id()
                            + "' is in " + holder + " already: one file per rule", null);
                }
                if (running != null && running.id().equals(rule.id())) {
                    if (rule.equals(running)) {
                        seen.put(file, new Seen(content, running, false));
                        continue; // rewritten the same (spacing, say): nothing to change
                    }
                    if (rule.version() <= running.version()) {
                        throw new RuleFormatException(rule.id(), file.toString(), "version", -1, -1, "rule '"
                                + rule.id() + "' changed but its version is " + rule.version() + ", not above the"
                                + " running " + running.version() + ": raise the version to replace it", null);
                    }
                }
                compiled = compile.apply(rule);
            } catch (RuntimeException problem) {
                out.add(new Rejected<>(file, problem));
                seen.put(file, new Seen(content, running, true));
                continue;
            }
            if (running != null && !running.id().equals(rule.id())) {
                out.add(new Removed<>(file, running.id()));
            }
            out.add(new Put<>(file, rule, compiled));
            seen.put(file, new Seen(content, rule, false));
        }
        return out;
    }

    /** @return the file running rule {@code id}, other than {@code file}, or null */
    private String holderOf(String id, Path file) {
        for (Map.Entry<Path, Seen> e : seen.entrySet()) {
            if (!e.getKey().equals(file) && e.getValue().running() != null && e.getValue().running().id().equals(id)) {
                return e.getKey().toString();
            }
        }
        return null;
    }

    /** @return the rule files now, in name order */
    private List<Path> list() {
        List<Path> out = new ArrayList<>();
        try {
            if (Files.isDirectory(root)) {
                try (DirectoryStream<Path> files = Files.newDirectoryStream(root, "*.json")) {
                    for (Path f : files) {
                        if (!f.getFileName().toString().startsWith(".") && Files.isRegularFile(f)) {
                            out.add(f);
                        }
                    }
                }
            } else if (Files.exists(root)) {
                out.add(root);
            } else if (seen.isEmpty()) {
                throw new UncheckedIOException(new NoSuchFileException(root.toString(), null,
                        "no such rule folder or file"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list rules in " + root + ": " + e.getMessage(), e);
        }
        out.sort(null);
        return out;
    }

    @Override
    public String toString() {
        return "RuleDirectory[" + root + ", " + Arrays.toString(running().keySet().toArray()) + "]";
    }
}

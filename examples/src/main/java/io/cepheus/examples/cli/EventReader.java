package io.cepheus.examples.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads events from text, one per line: CSV under a header line, or JSON Lines (one flat object per line).
 * Blank lines and, in CSV, lines starting with {@code #} are skipped. Extra columns or keys are ignored;
 * missing or malformed ones make the line malformed, and {@link #next()} throws a
 * {@link MalformedLineException} with its line number, after which reading goes on with the next line
 * (unless the exception is {@linkplain MalformedLineException#fatal() fatal}: a CSV header without the
 * required columns).
 * Single-threaded.
 *
 * @param <E> the event type
 */
public final class EventReader<E> {

    /** The two input formats. */
    public enum Format {
        /** Comma-separated values under a header line; fields may be quoted ({@code "a, b"}, {@code ""} for "). */
        CSV,
        /** One JSON object per line. */
        JSONL;

        /**
         * @param fileName a file name
         * @return the format its extension says, or null if it says none
         */
        public static Format ofFileName(String fileName) {
            String lower = fileName.toLowerCase(Locale.ROOT);
            if (lower.endsWith(".csv")) {
                return CSV;
            }
            if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson") || lower.endsWith(".json")) {
                return JSONL;
            }
            return null;
        }
    }

    private final BufferedReader in;
    private final EventSchema<E> schema;
    private Format format;
    private String[] header;
    private long line;
    private String pending;

    /**
     * @param in     the text
     * @param schema how a line becomes an event
     * @param format the format, or null to tell from the first non-blank line (an opening brace means JSON Lines)
     */
    public EventReader(BufferedReader in, EventSchema<E> schema, Format format) {
        this.in = in;
        this.schema = schema;
        this.format = format;
    }

    /** @return the number of the last line read, 1-based */
    public long line() {
        return line;
    }

    /** @return the format, once known */
    public Format format() {
        return format;
    }

    /**
     * @return the next event, or null at the end of the input
     * @throws MalformedLineException if the next line is malformed (call again for the line after it)
     */
    public E next() {
        while (true) {
            String text = readLine();
            if (text == null) {
                if (header == null && format == Format.CSV) {
                    // a CSV without its header is most likely the wrong file, never a run of 0 events (an input of
                    // unknown format that is empty is just no events)
                    throw new MalformedLineException(Math.max(line, 1), line == 0 ? "the input is empty: a CSV needs a header"
                            + " line" : "the input has no header line, only blank lines and comments", true);
                }
                return null;
            }
            String trimmed = text.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (format == null) {
                format = trimmed.startsWith("{") ? Format.JSONL : Format.CSV;
            }
            if (format == Format.JSONL) {
                if (schema.typedJson()) {
                    Map<String, Object> typed = MapEvents.parseJsonObject(trimmed, line);
                    Map<String, String> asText = new HashMap<>();
                    typed.forEach((k, v) -> asText.put(k, String.valueOf(v)));
                    return schema.parse(new Row(line, asText, typed));
                }
                return schema.parse(new Row(line, Json.parseFlatObject(trimmed, line)));
            }
            if (trimmed.startsWith("#")) {
                continue;
            }
            if (header == null) {
                header = readHeader(text);
                continue;
            }
            return schema.parse(new Row(line, csvRow(text)));
        }
    }

    private String readLine() {
        try {
            String text = pending != null ? pending : in.readLine();
            pending = null;
            if (text != null) {
                line++;
                if (line == 1 && !text.isEmpty() && text.charAt(0) == '\uFEFF') {
                    text = text.substring(1); // a byte-order mark
                }
            }
            return text;
        } catch (Utf8LineReader.NotUtf8Exception e) {
            line++; // consumed: the next call reads the line after it
            throw new MalformedLineException(line, e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("reading line " + (line + 1) + ": " + e.getMessage(), e);
        }
    }

    private String[] readHeader(String text) {
        List<String> names = split(text);
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (name.isEmpty()) {
                throw new MalformedLineException(line, "the CSV header has an empty column name", true);
            }
            if (!seen.add(name)) {
                throw new MalformedLineException(line, "the CSV header names \"" + name + "\" twice", true);
            }
        }
        List<String> missing = new ArrayList<>();
        for (EventSchema.Field<E> f : schema.fields()) {
            if (f.required() && !seen.contains(f.name())) {
                missing.add(f.name());
            }
        }
        if (!missing.isEmpty()) {
            // a wrong header makes every line malformed: say so once, at the header
            throw new MalformedLineException(line, "the CSV header lacks " + String.join(", ", missing)
                    + " (it has " + String.join(", ", names) + ")", true);
        }
        return names.toArray(new String[0]);
    }

    private Map<String, String> csvRow(String text) {
        List<String> cells = split(text);
        if (cells.size() != header.length) {
            throw new MalformedLineException(line, cells.size() + " columns, the header has " + header.length);
        }
        Map<String, String> out = new java.util.LinkedHashMap<>(); // in header order: alerts show fields as written
        for (int i = 0; i < header.length; i++) {
            out.put(header[i], cells.get(i));
        }
        return out;
    }

    /** Splits one CSV line; quoted cells keep commas, {@code ""} inside quotes is one quote. */
    private List<String> split(String text) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        cell.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    cell.append(c);
                }
            } else if (c == ',') {
                cells.add(wasQuoted ? cell.toString() : cell.toString().strip());
                cell.setLength(0);
                wasQuoted = false;
            } else if (c == '"' && cell.toString().isBlank()) {
                cell.setLength(0);
                quoted = true;
                wasQuoted = true;
            } else {
                cell.append(c);
            }
        }
        if (quoted) {
            throw new MalformedLineException(line, "a quoted field is not closed");
        }
        cells.add(wasQuoted ? cell.toString() : cell.toString().strip());
        return cells;
    }
}

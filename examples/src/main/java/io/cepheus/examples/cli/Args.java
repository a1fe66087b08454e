package io.cepheus.examples.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of one command, parsed against what the command accepts: options with a value
 * ({@code --out FILE} or {@code --out=FILE}), flags ({@code --explain}) and positional arguments. Anything
 * else is a {@link UsageException} naming the argument. A lone {@code -} is a positional argument or a value
 * (standard input or output); {@code --} ends the options.
 */
public final class Args {

    private final String command;
    private final Map<String, String> values;
    private final Set<String> flags;
    private final List<String> positionals;

    private Args(String command, Map<String, String> values, Set<String> flags, List<String> positionals) {
        this.command = command;
        this.values = values;
        this.flags = flags;
        this.positionals = positionals;
    }

    /**
     * @param command        the command, for messages
     * @param tokens         the arguments after the command name
     * @param valueOptions   the options that take a value, without dashes
     * @param flagOptions    the options that take none, without dashes
     * @param maxPositionals how many positional arguments the command takes
     * @return the parsed arguments
     * @throws UsageException naming the first bad argument
     */
    public static Args parse(String command, List<String> tokens, Set<String> valueOptions, Set<String> flagOptions,
            int maxPositionals) {
        Map<String, String> values = new LinkedHashMap<>();
        Set<String> flags = new java.util.LinkedHashSet<>();
        List<String> positionals = new ArrayList<>();
        boolean optionsEnded = false;
        for (int i = 0; i < tokens.size(); i++) {
            String token = tokens.get(i);
            if (optionsEnded || !token.startsWith("-") || token.equals("-")) {
                if (positionals.size() == maxPositionals) {
                    throw new UsageException(command, maxPositionals == 0
                            ? "'" + command + "' takes no argument, got '" + token + "'"
                            : "unexpected argument '" + token + "'");
                }
                positionals.add(token);
                continue;
            }
            if (token.equals("--")) {
                optionsEnded = true;
                continue;
            }
            if (!token.startsWith("--")) {
                throw new UsageException(command, "unknown option '" + token + "' (options start with --)");
            }
            int eq = token.indexOf('=');
            String name = token.substring(2, eq < 0 ? token.length() : eq);
            if (flagOptions.contains(name)) {
                if (eq >= 0) {
                    throw new UsageException(command, "--" + name + " takes no value");
                }
                if (!flags.add(name)) {
                    throw new UsageException(command, "--" + name + " given twice");
                }
            } else if (valueOptions.contains(name)) {
                String value;
                if (eq >= 0) {
                    value = token.substring(eq + 1);
                } else if (i + 1 < tokens.size() && (!tokens.get(i + 1).startsWith("--"))) {
                    value = tokens.get(++i);
                } else {
                    throw new UsageException(command, "--" + name + " needs a value");
                }
                if (value.isEmpty()) {
                    throw new UsageException(command, "--" + name + " needs a value");
                }
                if (values.put(name, value) != null) {
                    throw new UsageException(command, "--" + name + " given twice");
                }
            } else {
                throw new UsageException(command, "unknown option '--" + name + "' for '" + command + "'");
            }
        }
        return new Args(command, values, flags, positionals);
    }

    /** @return the command these arguments are for */
    public String command() {
        return command;
    }

    /**
     * @param flag a flag, without dashes
     * @return whether it was given
     */
    public boolean has(String flag) {
        return flags.contains(flag);
    }

    /**
     * @param option an option, without dashes
     * @return its value, or null if not given
     */
    public String value(String option) {
        return values.get(option);
    }

    /**
     * @param option   an option, without dashes
     * @param fallback the value if not given
     * @return its value
     */
    public String value(String option, String fallback) {
        return values.getOrDefault(option, fallback);
    }

    /** @return the positional arguments, in order */
    public List<String> positionals() {
        return positionals;
    }

    /**
     * @param option   an option taking an integer
     * @param fallback the value if not given
     * @param min      the smallest value allowed
     * @param max      the largest value allowed
     * @return the value
     */
    public int intValue(String option, int fallback, int min, int max) {
        String raw = values.get(option);
        if (raw == null) {
            return fallback;
        }
        try {
            int v = Integer.parseInt(raw);
            if (v < min || v > max) {
                throw new UsageException(command, "--" + option + " must be between " + min + " and " + max
                        + ", got " + raw);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new UsageException(command, "--" + option + " needs a whole number, got '" + raw + "'");
        }
    }

    /**
     * @param option   an option taking a long
     * @param fallback the value if not given
     * @return the value
     */
    public long longValue(String option, long fallback) {
        String raw = values.get(option);
        if (raw == null) {
            return fallback;
        }
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new UsageException(command, "--" + option + " needs a whole number, got '" + raw + "'");
        }
    }

    /**
     * @param option  an option taking one of a few words
     * @param fallback the value if not given
     * @param allowed the words allowed
     * @return the value, lower case
     */
    public String choice(String option, String fallback, List<String> allowed) {
        String raw = values.get(option);
        if (raw == null) {
            return fallback;
        }
        String v = raw.toLowerCase(Locale.ROOT);
        if (!allowed.contains(v)) {
            throw new UsageException(command, "--" + option + " must be one of " + String.join(", ", allowed)
                    + ", got '" + raw + "'");
        }
        return v;
    }

    /**
     * @param option   an option taking a duration
     * @param fallback the value if not given
     * @return the value: {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h} or ISO-8601 ({@code PT5S})
     */
    public Duration duration(String option, Duration fallback) {
        String raw = values.get(option);
        if (raw == null) {
            return fallback;
        }
        Duration d = parseDuration(raw);
        if (d == null || d.isNegative()) {
            throw new UsageException(command, "--" + option + " needs a duration such as 500ms, 5s, 2m or 1h, got '"
                    + raw + "'");
        }
        return d;
    }

    /** @return the duration, or null if {@code raw} is none */
    static Duration parseDuration(String raw) {
        String s = raw.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.startsWith("pt")) {
                return Duration.parse(s);
            }
            int unitAt = 0;
            while (unitAt < s.length() && Character.isDigit(s.charAt(unitAt))) {
                unitAt++;
            }
            if (unitAt == 0) {
                return null;
            }
            long n = Long.parseLong(s.substring(0, unitAt));
            return switch (s.substring(unitAt)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m", "min" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> null;
            };
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            return null;
        }
    }
}

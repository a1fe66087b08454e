package io.cepheus.rules.internal.format;

import io.cepheus.rules.internal.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the members of one JSON object of a rule, checking each one's type, and refuses the members nobody asked
 * for: a misspelt field must not be ignored. A member named {@code metadata} is always allowed and never read.
 * Every value read is recorded with its path, so that a later compile error can still say its line and column.
 */
final class Members {

    private final Json.Obj object;
    private final String path;
    private final Problem problem;
    private final Map<String, Json> seen;

    /**
     * @param value   the value that must be an object
     * @param path    its path
     * @param problem the document's exception maker
     * @param seen    where each value read is recorded by path
     */
    Members(Json value, String path, Problem problem, Map<String, Json> seen) {
        if (!(value instanceof Json.Obj o)) {
            throw problem.at(path, value, "expected an object but found " + value.kind());
        }
        this.object = o;
        this.path = path;
        this.problem = problem;
        this.seen = seen;
        seen.put(path, value);
    }

    /** @return the object's path */
    String path() {
        return path;
    }

    /** @return the object itself */
    Json.Obj object() {
        return object;
    }

    /** @return the path of member {@code name} */
    String pathOf(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** @return whether the member is present (null counts as present) */
    boolean has(String name) {
        return object.members().containsKey(name);
    }

    /** @return the member's value, or null if absent; a JSON null is returned as {@link Json.Null} */
    Json raw(String name) {
        Json.Member m = object.members().get(name);
        if (m != null) {
            seen.put(pathOf(name), m.value());
        }
        return m == null ? null : m.value();
    }

    /** @return the member's value, or null if it is absent or JSON null */
    Json optional(String name) {
        Json v = raw(name);
        return v instanceof Json.Null ? null : v;
    }

    /** @return the member's value; absent or null is an error */
    Json required(String name) {
        Json v = optional(name);
        if (v == null) {
            throw problem.at(pathOf(name), has(name) ? raw(name) : object, has(name)
                    ? "'" + name + "' must not be null" : "missing '" + name + "'");
        }
        return v;
    }

    /** @return a string member that must be there and not blank */
    String requiredString(String name) {
        Json v = required(name);
        if (!(v instanceof Json.Str s)) {
            throw problem.at(pathOf(name), v, "'" + name + "' must be a string but is " + v.kind());
        }
        if (s.value().isBlank()) {
            throw problem.at(pathOf(name), v, "'" + name + "' must not be blank");
        }
        return s.value();
    }

    /** @return a string member, or null if absent or null */
    String optionalString(String name) {
        Json v = optional(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Json.Str s)) {
            throw problem.at(pathOf(name), v, "'" + name + "' must be a string but is " + v.kind());
        }
        return s.value();
    }

    /** @return an integer member in {@code [min, max]}; absent or null is an error */
    long requiredInteger(String name, long min, long max) {
        return integer(pathOf(name), required(name), min, max, name);
    }

    /** @return an integer value in {@code [min, max]} */
    long integer(String at, Json v, long min, long max, String name) {
        if (!(v instanceof Json.Num n) || !n.integral()) {
            throw problem.at(at, v, "'" + name + "' must be an integer but is " + v.kind()
                    + (v instanceof Json.Num n2 ? " (" + n2.text() + ")" : ""));
        }
        long value;
        try {
            value = Long.parseLong(n.text());
        } catch (NumberFormatException e) {
            throw problem.at(at, v, "'" + name + "' is " + n.text() + ", outside [" + min + ", " + max + "]");
        }
        if (value < min || value > max) {
            throw problem.at(at, v, "'" + name + "' is " + value + ", outside [" + min + ", " + max + "]");
        }
        return value;
    }

    /** @return an enum member's constant (written in upper case, as the format spells it); absent or null is an error */
    <E extends Enum<E>> E requiredEnum(String name, Class<E> type) {
        return enumValue(pathOf(name), required(name), type, name);
    }

    /** @return an enum value */
    <E extends Enum<E>> E enumValue(String at, Json v, Class<E> type, String name) {
        if (!(v instanceof Json.Str s)) {
            throw problem.at(at, v, "'" + name + "' must be a string but is " + v.kind());
        }
        try {
            return Enum.valueOf(type, s.value());
        } catch (IllegalArgumentException e) {
            List<String> known = new ArrayList<>();
            for (E c : type.getEnumConstants()) {
                known.add(c.name());
            }
            String hint = "";
            for (String k : known) {
                if (k.equals(s.value().toUpperCase(Locale.ROOT))) {
                    hint = " (the format writes it in upper case: " + k + ")";
                }
            }
            throw problem.at(at, v, "unknown " + name + " '" + s.value() + "'; known: " + String.join(", ", known)
                    + hint);
        }
    }

    /** @return an array member's items; absent or null is an error */
    List<Json> requiredArray(String name) {
        Json v = required(name);
        if (!(v instanceof Json.Arr a)) {
            throw problem.at(pathOf(name), v, "'" + name + "' must be an array but is " + v.kind());
        }
        return a.items();
    }

    /**
     * Refuses any member not in {@code known} (and not {@code metadata}).
     *
     * @param what  what the object is, for the message ("a stage", "a quantifier" ...)
     * @param known the members it may have
     */
    void noOthers(String what, Set<String> known) {
        for (Json.Member m : object.members().values()) {
            if (!known.contains(m.name()) && !m.name().equals("metadata")) {
                throw problem.at(pathOf(m.name()), m.line(), m.column(), "unknown field '" + m.name() + "' in "
                        + what + "; its fields are " + String.join(", ", new java.util.TreeSet<>(known))
                        + " (and metadata, which is kept and ignored)", null);
            }
        }
    }
}

package io.cepheus.rules.internal.json;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON value as read, with the line and column it started at, so that a rule's errors can say where in the file
 * the offending value is. Read by {@link JsonTreeReader}; immutable.
 */
public sealed interface Json {

    /** @return the 1-based line the value starts on */
    int line();

    /** @return the 1-based column the value starts at */
    int column();

    /** @return what the value is, for messages ("a string", "an object" ...) */
    String kind();

    /**
     * An object: its members in file order.
     *
     * @param members name to member
     * @param line    where it starts
     * @param column  where it starts
     */
    record Obj(Map<String, Member> members, int line, int column) implements Json {
        /** Copies the members, keeping their order. */
        public Obj {
            members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
        }

        @Override
        public String kind() {
            return "an object";
        }
    }

    /**
     * A member of an object: where its name is written, and its value.
     *
     * @param name   the member's name
     * @param value  its value
     * @param line   where the name is written
     * @param column where the name is written
     */
    record Member(String name, Json value, int line, int column) {
    }

    /**
     * An array.
     *
     * @param items  the items
     * @param line   where it starts
     * @param column where it starts
     */
    record Arr(List<Json> items, int line, int column) implements Json {
        /** Copies the items. */
        public Arr {
            items = List.copyOf(items);
        }

        @Override
        public String kind() {
            return "an array";
        }
    }

    /**
     * A string.
     *
     * @param value  the string
     * @param line   where it starts
     * @param column where it starts
     */
    record Str(String value, int line, int column) implements Json {
        @Override
        public String kind() {
            return "a string";
        }
    }

    /**
     * A number, as written.
     *
     * @param text     the number's text
     * @param integral whether it was written without a fraction or exponent
     * @param line     where it starts
     * @param column   where it starts
     */
    record Num(String text, boolean integral, int line, int column) implements Json {
        @Override
        public String kind() {
            return integral ? "an integer" : "a decimal number";
        }
    }

    /**
     * {@code true} or {@code false}.
     *
     * @param value  the value
     * @param line   where it starts
     * @param column where it starts
     */
    record Bool(boolean value, int line, int column) implements Json {
        @Override
        public String kind() {
            return "a boolean";
        }
    }

    /**
     * {@code null}.
     *
     * @param line   where it is
     * @param column where it is
     */
    record Null(int line, int column) implements Json {
        @Override
        public String kind() {
            return "null";
        }
    }
}

package io.cepheus.nfa;

import io.cepheus.pattern.SimpleCondition;
import java.util.ArrayList;
import java.util.List;

/**
 * A test event written like Flink's documentation writes them: a name such as {@code a}, {@code b1} or
 * {@code c2}; its letter is its kind.
 */
public record TestEvent(String name, long ts) {

    public char kind() {
        return name.charAt(0);
    }

    public static SimpleCondition<TestEvent> kind(char k) {
        return e -> e.kind() == k;
    }

    /** @return events named by the words of {@code text}, at times 1, 2, 3 ... */
    public static List<TestEvent> stream(String text) {
        List<TestEvent> out = new ArrayList<>();
        long ts = 1;
        for (String word : text.trim().split("\\s+")) {
            out.add(new TestEvent(word, ts++));
        }
        return out;
    }

    @Override
    public String toString() {
        return name;
    }
}

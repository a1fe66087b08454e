package io.cepheus.nfa.internal;

import io.cepheus.nfa.trace.EndReason;
import io.cepheus.nfa.trace.TraceEntry;
import io.cepheus.nfa.trace.TraceSink;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.ReadsFields;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The trace of one key: numbers its partial matches and reports what happens to them to a {@link TraceSink}.
 *
 * <p>Design. The engine keeps a key's partial matches as packed records without identity; a partial match is known
 * here by its state and buffer entry together with its start event ({@link Identity}), which stay the same while it
 * waits and change only when a step replaces it by its successors. The engine tells this class, for each partial
 * match a step branches, which successors it became ({@link NfaEngine}'s {@code traceBranch}); the first successor
 * carries the number on, the others get new numbers. What disappears from the key without a step saying why was
 * removed by the bound or by the skip strategy, which the engine names when it {@link #settle settles}. A step's
 * entries are kept until it commits, so a step a condition failed in reports nothing, as it changed nothing.
 *
 * <p>Only traced keys have one, so none of this is on the path of untraced keys. Owned by the engine's thread.
 */
final class KeyTracer {

    /** A partial match as the engine holds it: its state and buffer entry, packed, and its start event's number. */
    record Identity(long stateEntry, long startSeq) {
    }

    private final TraceSink sink;
    private final Program<?> program;
    private int lastNumber;
    /** The key's partial matches by identity (identical ones in a queue, oldest number first). */
    private Map<Identity, ArrayDeque<Integer>> live = new HashMap<>();
    /** The successors of the step being computed; they become {@link #live} when it commits. */
    private Map<Identity, ArrayDeque<Integer>> next = new HashMap<>();
    private final List<TraceEntry> stepEntries = new ArrayList<>();

    KeyTracer(TraceSink sink, Program<?> program) {
        this.sink = sink;
        this.program = program;
    }

    /** Reports what happened outside a step at once. */
    void report(TraceEntry entry) {
        sink.add(entry);
    }

    /** Reports what a step did once it commits. */
    void reportInStep(TraceEntry entry) {
        stepEntries.add(entry);
    }

    int newNumber() {
        return ++lastNumber;
    }

    /** Takes the number of a live partial match out of {@link #live} (it ends, or a step replaces it). */
    int take(long stateEntry, long startSeq) {
        ArrayDeque<Integer> numbers = live.get(new Identity(stateEntry, startSeq));
        if (numbers == null || numbers.isEmpty()) {
            return newNumber(); // it lived before the trace began
        }
        int number = numbers.poll();
        if (numbers.isEmpty()) {
            live.remove(new Identity(stateEntry, startSeq));
        }
        return number;
    }

    /** Records a successor of the step being computed. */
    void successor(long stateEntry, long startSeq, int number) {
        next.computeIfAbsent(new Identity(stateEntry, startSeq), i -> new ArrayDeque<>()).add(number);
    }

    /** Begins a step: the partial matches that live on unchanged are its successors too, as the engine reports. */
    void beginStep() {
        next = new HashMap<>();
        stepEntries.clear();
    }

    /** The step failed and changed nothing: forget what it would have reported. */
    void abortStep() {
        next = new HashMap<>();
        stepEntries.clear();
    }

    /**
     * The step committed: its successors are the key's partial matches, its entries are reported, and what the
     * commit left out was rejected at the bound.
     */
    void commitStep(KeyState st, long time) {
        live = next;
        next = new HashMap<>();
        for (TraceEntry e : stepEntries) {
            sink.add(e);
        }
        stepEntries.clear();
        settle(st, time, EndReason.REJECTED, "the key was at its bound of partial matches or buffer entries");
    }

    /**
     * Makes the numbered partial matches those the key holds: numbers the ones not known yet (they began before the
     * trace did), and reports the known ones the key no longer holds as ended for {@code reason} (null: forgets
     * them silently).
     */
    void settle(KeyState st, long time, EndReason reason, String detail) {
        Map<Identity, Integer> held = new HashMap<>();
        for (int i = 0; i < st.count; i++) {
            held.merge(new Identity(st.stateEntry(i), st.startSeq(i)), 1, Integer::sum);
        }
        List<Map.Entry<Identity, ArrayDeque<Integer>>> known = new ArrayList<>(live.entrySet());
        for (Map.Entry<Identity, ArrayDeque<Integer>> e : known) {
            int keep = held.getOrDefault(e.getKey(), 0);
            ArrayDeque<Integer> numbers = e.getValue();
            while (numbers.size() > keep) {
                int number = numbers.pollLast(); // the latest-started goes first, as the bound drops it
                if (reason == null) {
                    continue; // gone before the trace knew it: nothing to say
                }
                sink.add(new TraceEntry.Ended(time, number, reason, stageOf(KeyState.stateOf(e.getKey().stateEntry)),
                        detail, Map.of()));
            }
            if (numbers.isEmpty()) {
                live.remove(e.getKey());
            }
        }
        for (Map.Entry<Identity, Integer> h : held.entrySet()) {
            ArrayDeque<Integer> numbers = live.computeIfAbsent(h.getKey(), i -> new ArrayDeque<>());
            while (numbers.size() < h.getValue()) {
                numbers.add(newNumber());
            }
        }
    }

    /** Every partial match of the key ends for {@code reason}. */
    void endAll(long time, EndReason reason, String detail) {
        for (Map.Entry<Identity, ArrayDeque<Integer>> e : live.entrySet()) {
            for (int number : e.getValue()) {
                sink.add(new TraceEntry.Ended(time, number, reason, stageOf(KeyState.stateOf(e.getKey().stateEntry)),
                        detail, Map.of()));
            }
        }
        live = new HashMap<>();
    }

    /** @return a duration as a person writes it: {@code 10 min}, {@code 1500 ms} */
    static String duration(long millis) {
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + " h";
        } else if (millis % 60_000 == 0) {
            return millis / 60_000 + " min";
        } else if (millis % 1_000 == 0) {
            return millis / 1_000 + " s";
        }
        return millis + " ms";
    }

    /** @return a skip strategy as the pattern builder names it: {@code skipPastLastEvent}, {@code skipToFirst('b')} */
    static String describe(io.cepheus.pattern.AfterMatchSkipStrategy skip) {
        String[] words = skip.kind().name().toLowerCase(java.util.Locale.ROOT).split("_");
        StringBuilder name = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            name.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return name + (skip.stage() == null ? "" : "('" + skip.stage() + "')");
    }

    /** @return the name of the stage a state belongs to, null for the start state's own stage-less states */
    String stageOf(int state) {
        int stage = program.stateStage[state];
        return stage >= 0 ? program.stageNames.get(stage) : null;
    }

    /** @return whether a partial match in {@code state} may let an event pass (it has an IGNORE edge) */
    boolean mayIgnore(int state) {
        for (int e = program.edgeStart[state]; e < program.edgeStart[state + 1]; e++) {
            if (program.edgeAction[e] == Program.IGNORE) {
                return true;
            }
        }
        return false;
    }

    /**
     * The values of the fields read by the conditions of the edges that take an event from {@code state} (and the
     * states it proceeds to without taking one), for the conditions that can say ({@link ReadsFields}).
     */
    @SuppressWarnings("unchecked")
    Map<String, Object> fieldsRead(int state, Object event) {
        Map<String, Object> out = new LinkedHashMap<>();
        boolean[] seen = new boolean[program.stateKind.length];
        ArrayDeque<Integer> todo = new ArrayDeque<>();
        todo.add(state);
        while (!todo.isEmpty()) {
            int s = todo.poll();
            if (seen[s]) {
                continue;
            }
            seen[s] = true;
            for (int e = program.edgeStart[s]; e < program.edgeStart[s + 1]; e++) {
                if (program.edgeAction[e] == Program.PROCEED) {
                    todo.add(program.edgeTarget[e]);
                } else if (program.edgeAction[e] == Program.TAKE
                        || program.stateKind[program.edgeTarget[e]] == Program.STOP) {
                    List<Integer> atoms = new ArrayList<>();
                    program.edgeCondition[e].atoms(atoms);
                    for (int atom : atoms) {
                        Condition<?> c = program.atoms[atom];
                        if (c instanceof ReadsFields<?> reads) {
                            try {
                                out.putAll(((ReadsFields<Object>) reads).fieldValues(event));
                            } catch (RuntimeException ex) {
                                out.put(program.atomLabels[atom], "<cannot be read: " + ex + ">");
                            }
                        }
                    }
                }
            }
        }
        return out;
    }
}

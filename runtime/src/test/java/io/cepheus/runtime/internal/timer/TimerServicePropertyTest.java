package io.cepheus.runtime.internal.timer;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Property test: over random sequences of register / delete / advance operations in both time domains, with a
 * handler that itself registers and deletes timers while firing, {@link TimerService} behaves exactly as
 * {@link TimerModel}: same return values, same fired timers in the same order, same counts, next and current
 * times, and per-key counts after every step.
 *
 * <p>Few keys and namespaces, times drifting forward with jitter, and operations that re-register or delete an
 * earlier registration make duplicates, deletions of pending timers, timers at or below the current time and
 * ties on the timestamp common. Reproducible: the seed is {@code -Dcepheus.seed=...} or a fixed
 * default and is printed on failure with the shrunk operation sequence; {@code -Dcepheus.examples=...} changes
 * the number of examples.
 */
class TimerServicePropertyTest {

    private static final long DEFAULT_SEED = 0x71AE_5EEDL;
    private static final int EXAMPLES = Integer.getInteger("cepheus.examples", 3000);
    private static final int KEYS = 5;

    /** REGISTER_AGAIN and DELETE_REGISTERED only exist while generating; see {@link #resolve}. */
    enum Kind { REGISTER, DELETE, ADVANCE, REGISTER_AGAIN, DELETE_REGISTERED }

    /**
     * One step; {@code time} is the timestamp for REGISTER / DELETE and the new time for ADVANCE; {@code earlier}
     * picks an earlier registration while generating.
     */
    record Op(Kind kind, boolean eventTime, int key, long namespace, long time, int earlier) {
        Op as(Kind otherKind) {
            return new Op(otherKind, eventTime, key, namespace, time, 0);
        }

        @Override
        public String toString() {
            String domain = eventTime ? "ET" : "PT";
            return kind == Kind.ADVANCE ? "advance" + domain + "(" + time + ")"
                    : kind.name().toLowerCase(Locale.ROOT) + domain + "(" + key + "," + namespace + "," + time + ")";
        }
    }

    @Test
    void timerServiceBehavesAsTheModel() {
        long seed = seed();
        withSeedInFailure(seed, () -> qt().withFixedSeed(seed).withExamples(EXAMPLES)
                .forAll(operations())
                .checkAssert(TimerServicePropertyTest::assertSameAsModel));
    }

    /**
     * Guards the property against a generator that drifted into trivial sequences: many examples must fire
     * timers, fire them re-entrantly registered, hit duplicates and delete pending timers.
     */
    @Test
    void generatedSequencesExerciseTheInterestingCases() {
        int[] firedMany = {0};
        int[] duplicates = {0};
        int[] deletions = {0};
        int[] reentrantFirings = {0};
        int examples = 500;
        qt().withFixedSeed(seed()).withExamples(examples).forAll(operations()).check(ops -> {
            List<String> trace = run(TimerOperations.of(new TimerService(2)), ops);
            long fired = trace.stream().filter(line -> line.startsWith("  fired")).count();
            firedMany[0] += fired > 10 ? 1 : 0;
            duplicates[0] += trace.stream().anyMatch(line -> line.startsWith("register") && line.endsWith("false"))
                    ? 1 : 0;
            deletions[0] += trace.stream().anyMatch(line -> line.startsWith("delete") && line.endsWith("true"))
                    ? 1 : 0;
            reentrantFirings[0] += trace.stream().anyMatch(line -> line.contains("fired after re-entrant")) ? 1 : 0;
            return true;
        });
        String stats = "of " + examples + ": firing >10 timers " + firedMany[0] + ", with a duplicate "
                + duplicates[0] + ", deleting a pending timer " + deletions[0]
                + ", firing a timer registered while firing " + reentrantFirings[0];
        assertTrue(firedMany[0] > examples / 2, stats);
        assertTrue(duplicates[0] > examples / 2, stats);
        assertTrue(deletions[0] > examples / 2, stats);
        assertTrue(reentrantFirings[0] > examples / 4, stats);
    }

    private static void assertSameAsModel(List<Op> ops) {
        // a tiny initial capacity so that growing happens within the sequence
        List<String> actual = run(TimerOperations.of(new TimerService(2)), ops);
        List<String> expected = run(new TimerModel(), ops);
        int n = Math.min(actual.size(), expected.size());
        for (int i = 0; i < n; i++) {
            if (!actual.get(i).equals(expected.get(i))) {
                throw new AssertionError("service and model disagree at trace line " + i + ": expected <"
                        + expected.get(i) + "> but was <" + actual.get(i) + ">\ntrace so far (agreed):\n  "
                        + String.join("\n  ", expected.subList(Math.max(0, i - 30), i)));
            }
        }
        if (actual.size() != expected.size()) {
            throw new AssertionError("traces differ in length: expected " + expected.size() + " lines but was "
                    + actual.size());
        }
    }

    /**
     * Runs the operations and returns a trace: each operation with its result, each fired timer, each re-entrant
     * call the handler made with its result, and the observable state after each operation.
     */
    private static List<String> run(TimerOperations timers, List<Op> ops) {
        List<String> trace = new ArrayList<>();
        for (Op op : ops) {
            switch (op.kind()) {
                case REGISTER_AGAIN, DELETE_REGISTERED -> throw new IllegalArgumentException("unresolved " + op);
                case REGISTER -> trace.add(op + " -> "
                        + timers.register(op.eventTime(), op.key(), op.namespace(), op.time()));
                case DELETE -> trace.add(op + " -> "
                        + timers.delete(op.eventTime(), op.key(), op.namespace(), op.time()));
                case ADVANCE -> {
                    trace.add(op.toString());
                    ReentrantHandler handler = new ReentrantHandler(timers, op.eventTime(), trace);
                    int fired = timers.advance(op.eventTime(), op.time(), handler);
                    trace.add("  -> " + fired);
                }
            }
            trace.add(state(timers));
        }
        return trace;
    }

    private static String state(TimerOperations timers) {
        StringBuilder s = new StringBuilder("  state: ET ").append(timers.size(true))
                .append(" next ").append(timers.nextTime(true)).append(" wm ").append(timers.currentTime(true))
                .append(", PT ").append(timers.size(false))
                .append(" next ").append(timers.nextTime(false)).append(" now ").append(timers.currentTime(false))
                .append(", per key");
        for (int key = 0; key <= KEYS; key++) {
            s.append(' ').append(timers.timersOf(key));
        }
        return s.toString();
    }

    /**
     * Records each fired timer and, for some of them (a fixed function of the timer), registers a timer in the
     * same domain near it (possibly at or below the current time, so it fires in the same advance) or deletes
     * one. The namespace grows on each re-entrant registration and stops at 4, so chains end.
     */
    private static final class ReentrantHandler implements TimerHandler {
        private final TimerOperations timers;
        private final boolean eventTime;
        private final List<String> trace;
        private final List<String> registeredWhileFiring = new ArrayList<>();

        ReentrantHandler(TimerOperations timers, boolean eventTime, List<String> trace) {
            this.timers = timers;
            this.eventTime = eventTime;
            this.trace = trace;
        }

        @Override
        public void onTimer(int key, long namespace, long timestamp) {
            String timer = key + "," + namespace + "," + timestamp;
            trace.add("  fired" + (registeredWhileFiring.contains(timer) ? " after re-entrant" : "") + " ("
                    + timer + ") timersOf " + timers.timersOf(key));
            if (namespace < 4 && (key + namespace + timestamp) % 3 == 0) {
                long at = timestamp + Math.floorMod(key + timestamp, 7) - 3;
                boolean added = timers.register(eventTime, key, namespace + 1, at);
                registeredWhileFiring.add(key + "," + (namespace + 1) + "," + at);
                trace.add("    register(" + key + "," + (namespace + 1) + "," + at + ") -> " + added);
            }
            if (Math.floorMod(key + timestamp, 5) == 0) {
                int other = (key + 1) % KEYS;
                trace.add("    delete(" + other + "," + namespace + "," + (timestamp + 1) + ") -> "
                        + timers.delete(eventTime, other, namespace, timestamp + 1));
            }
        }
    }

    /**
     * Random operations: a fifth of them pick an earlier registration (to register it again, or to delete it,
     * pending or already fired), the rest are fresh; see {@link #resolve}.
     */
    private static Gen<List<Op>> operations() {
        Gen<Kind> kinds = integers().between(0, 19).map(i -> i < 7 ? Kind.REGISTER : i < 9 ? Kind.REGISTER_AGAIN
                : i < 12 ? Kind.DELETE_REGISTERED : i < 13 ? Kind.DELETE : Kind.ADVANCE);
        Gen<Op> ops = kinds.zip(booleans().all(), integers().between(0, KEYS * 3 - 1), longs().between(-20, 20),
                integers().between(0, 1 << 16),
                (kind, eventTime, keyAndNamespace, offset, earlier) -> new Op(kind, eventTime,
                        keyAndNamespace / 3, keyAndNamespace % 3, offset, earlier));
        return lists().of(ops).ofSizeBetween(0, 120).map(TimerServicePropertyTest::resolve);
    }

    /**
     * Makes the generated operations concrete. Times become step index + offset, so time drifts forward as in a
     * stream: about half of the registrations land above the current time (and wait) and half at or below it
     * (and fire on the next advance), and some advances go backwards. REGISTER_AGAIN and DELETE_REGISTERED take
     * the timer of an earlier registration and become REGISTER and DELETE.
     */
    private static List<Op> resolve(List<Op> generated) {
        List<Op> resolved = new ArrayList<>(generated.size());
        List<Op> registrations = new ArrayList<>();
        for (int i = 0; i < generated.size(); i++) {
            Op op = generated.get(i);
            Op concrete = new Op(op.kind(), op.eventTime(), op.key(), op.namespace(), i + op.time(), 0);
            if (op.kind() == Kind.REGISTER_AGAIN || op.kind() == Kind.DELETE_REGISTERED) {
                Kind kind = op.kind() == Kind.REGISTER_AGAIN ? Kind.REGISTER : Kind.DELETE;
                concrete = registrations.isEmpty() ? new Op(kind, concrete.eventTime(), concrete.key(),
                        concrete.namespace(), concrete.time(), 0)
                        : registrations.get(op.earlier() % registrations.size()).as(kind);
            }
            if (concrete.kind() == Kind.REGISTER) {
                registrations.add(concrete);
            }
            resolved.add(concrete);
        }
        return resolved;
    }

    private static long seed() {
        return io.cepheus.nfa.testing.PropertySeeds.seed(DEFAULT_SEED);
    }

    private static void withSeedInFailure(long seed, Runnable check) {
        io.cepheus.nfa.testing.PropertySeeds.reportingSeed(seed, "runtime", "TimerServicePropertyTest", check);
    }
}

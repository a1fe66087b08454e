package io.cepheus.examples.cli;

import io.cepheus.pattern.Pattern;
import io.cepheus.rules.RuleDirectory;
import io.cepheus.runtime.rules.RuleStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The command line's rule set: a folder (or file) of rules, loaded before the run and, with {@code --watch}, read
 * again every interval of the injected clock, checked as events arrive; changes go to the engine's live rule set,
 * rejections to standard error (file, rule, JSON path, what is wrong) while the running version stays. Used by the
 * thread that feeds the engine.
 */
final class WatchedRules {

    private final RuleDirectory<Pattern<MapEvent>> directory;
    private final PrintStream err;
    private final LongSupplier nanos;
    private final long intervalNanos;
    private RuleStream<MapEvent> rules;
    private long lastPoll;
    private int inForce;

    /**
     * @param where         the folder or file
     * @param err           where changes and rejections are reported
     * @param nanos         a monotonic clock
     * @param intervalNanos how often the folder is read again while events arrive; 0 for never (no {@code --watch})
     */
    WatchedRules(Path where, PrintStream err, LongSupplier nanos, long intervalNanos) {
        this.directory = RuleDirectory.open(where, rule -> rule.compileForMaps());
        this.err = err;
        this.nanos = nanos;
        this.intervalNanos = intervalNanos;
    }

    /**
     * Reads the rules and puts the valid ones in the rule set the engine starts with.
     *
     * @param rules the engine's rule set, not started
     * @return how many rules are in force
     */
    int load(RuleStream<MapEvent> rules) {
        this.rules = rules;
        apply(directory.poll(), true);
        lastPoll = nanos.getAsLong();
        return inForce;
    }

    /** Reads the rules again if the interval has passed (with {@code --watch}); changes apply from the next event. */
    void maybePoll() {
        if (intervalNanos <= 0) {
            return;
        }
        long now = nanos.getAsLong();
        if (now - lastPoll >= intervalNanos) {
            lastPoll = now;
            apply(directory.poll(), false);
        }
    }

    /** @return the patterns in force, by rule, for {@code --explain} */
    java.util.Map<String, io.cepheus.rules.Rule> running() {
        return directory.running();
    }

    private void apply(List<RuleDirectory.Change<Pattern<MapEvent>>> changes, boolean atStart) {
        for (RuleDirectory.Change<Pattern<MapEvent>> c : changes) {
            if (c instanceof RuleDirectory.Put<Pattern<MapEvent>> put) {
                try {
                    boolean replaces = rules.rules().stream().anyMatch(r -> r.id().equals(put.rule().id()));
                    rules.put(put.rule().id(), put.rule().version(), put.compiled());
                    if (!replaces) {
                        inForce++;
                    }
                    if (!atStart) {
                        err.println("cepheus: rule " + put.rule().id() + " v" + put.rule().version() + " from "
                                + put.file() + (replaces ? " replaces the running version" : " added"));
                    }
                } catch (IllegalArgumentException refused) {
                    err.println("cepheus: rule file " + put.file() + " rejected: " + refused.getMessage());
                }
            } else if (c instanceof RuleDirectory.Removed<Pattern<MapEvent>> removed) {
                rules.remove(removed.id());
                inForce--;
                err.println("cepheus: rule " + removed.id() + " removed (" + removed.file() + ")");
            } else {
                RuleDirectory.Rejected<Pattern<MapEvent>> rejected = (RuleDirectory.Rejected<Pattern<MapEvent>>) c;
                err.println("cepheus: rule file " + rejected.file() + " rejected"
                        + (atStart ? "" : " (the running version stays)") + ": " + rejected.problem().getMessage());
            }
        }
    }
}

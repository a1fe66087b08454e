package io.cepheus.runtime.internal.hosted;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.runtime.internal.cep.CepOperator;
import io.cepheus.runtime.internal.cep.RuleSetOperator;
import io.cepheus.runtime.internal.cep.SharedEventBuffer;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.shard.RestoreScope;
import io.cepheus.runtime.internal.shard.ShardContext;
import io.cepheus.runtime.internal.shard.ShardOperators;
import io.cepheus.runtime.internal.shard.UserFailures;
import io.cepheus.runtime.internal.timer.TimerService;
import io.cepheus.runtime.rules.RuleVersion;
import java.util.function.Function;
import io.cepheus.runtime.time.Clock;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * A shard of patterns (and at most one rule set) driven by a host's own loop instead of the engine's inbox: a Kafka
 * Streams task hands it each record, its watermark and the wall clock's time, and keeps every key's state where it
 * wants it (its state store) as the state changes, instead of taking whole snapshots. The patterns and the rule set
 * are the engine's own operators ({@link CepOperator}, {@link RuleSetOperator}) on the engine's
 * {@link ShardOperators}: matching, buffering, timeouts, late events and rule changes are the engine's, on one
 * shared event-time buffer per tie-breaker. Every event-time buffer here numbers the same events (every record
 * not late), so one arrival number names a buffered event in all of them.
 *
 * <p>What the host keeps, and how it puts it back:
 * <ul>
 *   <li>the header ({@link #writeHeader}): the watermark, the next arrival number and each pattern's time and
 *       counters, written whenever the host commits;</li>
 *   <li>each key's matching state ({@link #writeKey}), rewritten after every step that changed it
 *       ({@link #drainChangedKeys}); a key with none left is deleted;</li>
 *   <li>each buffered event under its arrival number, as {@link #processElement} buffers it, deleted once a
 *       watermark releases it ({@link #advanceWatermark}).</li>
 * </ul>
 * A restore reads the header, then the keys, then the buffered events in arrival order, then
 * {@link #finishRestore}.
 *
 * <p>Owned by the host's thread (a Kafka Streams stream thread, which runs one task at a time).
 *
 * @param <T> the event type
 */
public final class HostedShard<T> implements ShardContext<T> {

    /** The format of what {@link #writeHeader} and {@link #writeKey} write; a reader of another one fails. */
    public static final int FORMAT_VERSION = 1;

    private final ShardOperators<T> operators = new ShardOperators<>();
    private final List<CepOperator<T>> patterns = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final Clock clock;
    private final Set<Object> changedKeys = new LinkedHashSet<>();
    private final BufferedArrivals buffered = new BufferedArrivals();
    private final UserFailures failures = new UserFailures();
    private RuleSetOperator<T> ruleSet;
    private long watermark = Long.MIN_VALUE;
    private long nextArrival;
    private boolean eventTime;

    /** @param clock the processing-time clock of the patterns that run in processing time */
    public HostedShard(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Adds a pattern (setup, before the first record).
     *
     * @param name             the pattern's name, unique here: a restore checks the patterns are the same ones
     * @param pattern          the compiled pattern
     * @param options          its NFA options
     * @param tieBreaker       orders events of equal timestamp before arrival order (event time only); null for none
     * @param inProcessingTime whether it matches in processing time, by the clock
     * @param output           where its matches, timeouts, late events and dead letters go
     * @return the pattern's position
     */
    public int addPattern(String name, CompiledPattern<T> pattern, NfaOptions options,
            Comparator<? super T> tieBreaker, boolean inProcessingTime, CepOperator.Output<T> output) {
        if (names.contains(name)) {
            throw new IllegalArgumentException("two patterns are named " + name);
        }
        if (inProcessingTime && tieBreaker != null) {
            throw new IllegalArgumentException("pattern " + name + " runs in processing time with a tie-breaker:"
                    + " its arrivals of one millisecond would wait outside the state the host keeps");
        }
        int id = operators.size();
        CepOperator<T> operator = new CepOperator<>(id, pattern, options, tieBreaker, operators.keys(),
                operators.timers(), output);
        if (inProcessingTime) {
            operator.inProcessingTime(clock);
        } else {
            operator.shareBuffer(operators.patternBuffer(tieBreaker));
            eventTime = true;
        }
        operator.keyChanges(changedKeys::add);
        operators.add(operator);
        patterns.add(operator);
        names.add(name);
        return id;
    }

    /**
     * Adds the rule set (setup, before the first record; at most one). It starts without versions: the host applies
     * changes with {@link RuleSetOperator#apply}, between records.
     *
     * @param options    the NFA options of every version
     * @param tieBreaker orders events of equal timestamp before arrival order; null for none
     * @param spec       the versions' outputs
     * @return the rule set
     */
    public RuleSetOperator<T> addRuleSet(NfaOptions options, Comparator<? super T> tieBreaker,
            RuleSetOperator.Spec<T> spec) {
        if (ruleSet != null) {
            throw new IllegalStateException("a hosted shard takes one rule set");
        }
        // the host keeps every buffered event and puts it back into every buffer: the rule set buffers them all too
        ruleSet = new RuleSetOperator<>(operators.size(), spec, options, tieBreaker, this, true);
        ruleSet.keyChanges(changedKeys::add);
        operators.add(ruleSet);
        eventTime = true;
        return ruleSet;
    }

    /** @return the rule set, or null if none was added */
    public RuleSetOperator<T> ruleSet() {
        return ruleSet;
    }

    @Override
    public int index() {
        return 0;
    }

    @Override
    public KeyDictionary keys() {
        return operators.keys();
    }

    @Override
    public TimerService timers() {
        return operators.timers();
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public UserFailures failures() {
        return failures;
    }

    @Override
    public SharedEventBuffer<T> patternBuffer(Comparator<? super T> tieBreaker) {
        return operators.patternBuffer(tieBreaker);
    }

    /** @return the patterns' names, in position order */
    public List<String> names() {
        return List.copyOf(names);
    }

    /** @return whether some pattern runs in event time (and so buffers events) */
    public boolean inEventTime() {
        return eventTime;
    }

    /** @return the watermark */
    @Override
    public long watermark() {
        return watermark;
    }

    /**
     * One record, to every pattern.
     *
     * @return the arrival number under which the event-time patterns buffer it, or -1 if none does (it is late, or
     *         every pattern runs in processing time)
     */
    public long processElement(Object key, T event, long timestamp) {
        operators.processElement(key, event, timestamp);
        if (!eventTime || timestamp <= watermark) {
            return -1;
        }
        buffered.add(timestamp, nextArrival);
        return nextArrival++;
    }

    /**
     * Advances the watermark: the buffered events up to it are matched, partial matches that expired by it time out.
     *
     * @param newWatermark the new watermark; not after the current one does nothing
     * @param released     told the arrival number of every buffered event the watermark released
     */
    public void advanceWatermark(long newWatermark, LongConsumer released) {
        if (newWatermark <= watermark) {
            return;
        }
        watermark = newWatermark;
        operators.advanceWatermark(newWatermark);
        buffered.releaseUpTo(newWatermark, released);
    }

    /** Fires the processing-time timers due at the clock's time. @return how many fired */
    public int advanceProcessingTime() {
        return operators.advanceProcessingTime(clock.millis());
    }

    /** @return how many events wait for the watermark */
    public int bufferedEvents() {
        return buffered.size();
    }

    /** @return the patterns, in position order (for their counters) */
    public List<CepOperator<T>> patterns() {
        return patterns;
    }

    /** Hands out, and forgets, the keys whose matching state changed since the last call. */
    public void drainChangedKeys(Consumer<Object> changed) {
        if (changedKeys.isEmpty()) {
            return;
        }
        for (Object key : changedKeys) {
            changed.accept(key);
        }
        changedKeys.clear();
    }

    /** Writes the header: the format, the watermark, the next arrival number, the patterns' names and counters. */
    public void writeHeader(DataOutput out) throws IOException {
        out.writeInt(FORMAT_VERSION);
        out.writeLong(watermark);
        out.writeLong(nextArrival);
        out.writeInt(patterns.size());
        for (int i = 0; i < patterns.size(); i++) {
            out.writeUTF(names.get(i));
            patterns.get(i).writeHeader(out);
        }
        out.writeBoolean(ruleSet != null);
        if (ruleSet != null) {
            ruleSet.writeHeader(out);
        }
    }

    /**
     * Restores the header, first in a restore.
     *
     * @param rules the pattern of each rule version the header names (a version being retired too)
     * @throws IOException if it is of another format, or names other patterns than this shard has
     */
    public void readHeader(DataInput in, Function<RuleVersion, CompiledPattern<T>> rules) throws IOException {
        requireFormat(in.readInt(), "its header");
        watermark = in.readLong();
        nextArrival = in.readLong();
        int count = in.readInt();
        List<String> written = new ArrayList<>(Math.min(count, 1024));
        if (count < 0 || count > 1_000_000) {
            throw new IOException("the state's header names " + count + " patterns");
        }
        for (int i = 0; i < count; i++) {
            written.add(in.readUTF());
            if (i < patterns.size() && written.get(i).equals(names.get(i))) {
                patterns.get(i).readHeader(in, RestoreScope.EXACT);
            } else {
                break;
            }
        }
        if (!written.equals(names)) {
            throw new IOException("the state was written by patterns " + written + "; these are " + names
                    + ": restore it with the same patterns in the same order, or start from an empty state");
        }
        boolean hadRuleSet = in.readBoolean();
        if (hadRuleSet != (ruleSet != null)) {
            throw new IOException("the state was written " + (hadRuleSet ? "with" : "without") + " rules; this"
                    + " processor has " + (ruleSet != null ? "rules" : "none"));
        }
        if (ruleSet != null) {
            ruleSet.readHeader(in, rules);
        }
        operators.restoreWatermark(watermark);
    }

    private static void requireFormat(int version, String what) throws IOException {
        if (version != FORMAT_VERSION) {
            throw new IOException(what + " is in Cepheus state format " + version + "; this version reads format "
                    + FORMAT_VERSION);
        }
    }

    /**
     * Writes a key's matching state: per pattern, whether it holds some and then the state.
     *
     * @return false, having written only the format, if no pattern holds matching state for the key: the host then
     *         deletes the key
     */
    public boolean writeKey(Object key, DataOutput out, EventCodec<T> events) throws IOException {
        out.writeByte(FORMAT_VERSION);
        int id = operators.keys().existingId(key);
        if (id < 0) {
            return false;
        }
        boolean any = false;
        for (CepOperator<T> pattern : patterns) {
            // the flag goes first, so write the state after it: a pattern without state writes nothing
            if (pattern.hasState(id)) {
                out.writeBoolean(true);
                pattern.writeKeyState(id, out, events);
                any = true;
            } else {
                out.writeBoolean(false);
            }
        }
        if (ruleSet != null) {
            boolean holds = ruleSet.holdsState(id);
            out.writeBoolean(holds);
            if (holds) {
                ruleSet.writeKeyState(id, out, events);
                any = true;
            }
        }
        return any;
    }

    /** Restores a key's matching state that {@link #writeKey} wrote, after the header. */
    public void readKey(Object key, DataInput in, EventCodec<T> events) throws IOException {
        requireFormat(in.readByte(), "the state of key " + key);
        for (CepOperator<T> pattern : patterns) {
            if (in.readBoolean()) {
                pattern.readKeyState(key, in, events);
            }
        }
        if (ruleSet != null && in.readBoolean()) {
            ruleSet.readKeyState(key, in, events);
        }
    }

    /**
     * Puts back a buffered event, after the keys, in arrival order.
     *
     * @throws IOException if the watermark already passed it, or its arrival number is not below the header's next
     */
    public void restoreBuffered(Object key, T event, long timestamp, long arrival) throws IOException {
        if (timestamp <= watermark) {
            throw new IOException("key " + key + " has an event at time " + timestamp
                    + " waiting for the watermark, which is already at " + watermark);
        }
        if (arrival < 0 || arrival >= nextArrival) {
            throw new IOException("key " + key + " has an event buffered under arrival number " + arrival
                    + ", not below the state's next arrival number " + nextArrival);
        }
        int id = operators.keys().idOf(key);
        for (SharedEventBuffer<T> b : operators.patternBuffers()) {
            b.restore(id, event, timestamp, arrival);
        }
        if (ruleSet != null) {
            ruleSet.restoreBuffered(id, event, timestamp, arrival);
        }
        buffered.add(timestamp, arrival);
    }

    /** Completes a restore: the restored keys are settled (their expiries armed) and numbering goes on. */
    public void finishRestore() {
        for (SharedEventBuffer<T> b : operators.patternBuffers()) {
            b.arrivals(nextArrival);
        }
        for (CepOperator<T> pattern : patterns) {
            pattern.settleRestored();
        }
        if (ruleSet != null) {
            ruleSet.settleRestored();
        }
        changedKeys.clear(); // what was just read is what the host holds
    }
}

package io.cepheus.runtime.internal.cep;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaMatcher;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.nfa.NfaState;
import io.cepheus.nfa.internal.CacheHints;
import io.cepheus.runtime.PatternMetrics;
import io.cepheus.runtime.internal.shard.GroupPrefetch;
import io.cepheus.runtime.internal.shard.KeyInspection;
import io.cepheus.runtime.internal.shard.RestoreScope;
import io.cepheus.runtime.internal.shard.KeyDictionary;
import io.cepheus.runtime.internal.shard.KeyedOperator;
import io.cepheus.runtime.internal.timer.KeyDueTimes;
import io.cepheus.runtime.internal.timer.KeyDueWheel;
import io.cepheus.runtime.internal.timer.KeyTimer;
import io.cepheus.runtime.internal.timer.TimerService;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One pattern on one shard: Flink's {@code CepOperator} semantics on Cepheus' NFA, in event time (below) or
 * in processing time ({@link #inProcessingTime}).
 *
 * <ul>
 *   <li>An event whose timestamp is not after the shard's watermark is late: it goes to the late output and
 *       is counted, never matched. Other events wait in the shard's {@link EventTimeBuffer}.</li>
 *   <li>When the watermark advances, buffered events up to it are released in timestamp order (equal
 *       timestamps in arrival order, or by the tie-breaking comparator) to their key's NFA; then each key that
 *       received events is advanced to the watermark, as Flink does.</li>
 *   <li>Keys that received nothing still time out: each key with partial matches has an entry in this
 *       operator's {@link KeyDueTimes}, never later than its {@link NfaState#expiryTime()}, so only keys whose
 *       windows actually close are visited, not every key at every watermark. An entry is lazy: matching moves
 *       a key's expiry later on most events (its oldest partial match completes or dies), and a shard timer would
 *       be deleted and registered again each time, a heap path of log n cache lines; here an entry that comes
 *       out early is put back at the key's real expiry instead. Due keys come out in (expiry, key id) order, the
 *       order shard timers would fire them. In processing time each key has one processing-time timer in the
 *       shard's {@link TimerService} instead (namespace = this operator's id).</li>
 *   <li>A key with nothing left (no partial or held matches, buffered events or timers) gives its id back to
 *       the shard's {@link KeyDictionary}, so memory follows live state.</li>
 * </ul>
 * Matches carry the time Flink gives them: the timestamp of the event that completed them, or the
 * watermark that released them (a trailing {@code notFollowedBy}, a held match); timeouts carry start + window.
 *
 * <p>Reading ahead (group prefetching, {@link GroupPrefetch}). With tens of thousands of keys the keys' NFA states do not fit in the
 * CPU cache, and a step starts with a miss on its key's state, then on what the state points to: paid one after
 * another, these misses are a large part of what a step costs. Every loop over keys here (the released events,
 * the keys advanced to the watermark, the due keys, the keys settled) therefore first reads, for the next
 * {@code GROUP} (16) keys, their states ({@link CacheHints#touchState}), then in a second loop what those point to
 * ({@link CacheHints#touchPartialMatches}), and only then processes them one by one in the unchanged order: the
 * misses of a group overlap. The read-ahead loops keep nothing but an int sum: storing the states' references
 * into a scratch array would run G1's post-write barrier, whose memory fence waits for the outstanding misses and
 * serializes them again. Reading ahead costs instructions, and pays only when the states really miss: with few
 * keys they stay in the cache (benchmark W1, about 3,000 live keys, ran slower with it), so the operator reads
 * ahead key states only while it holds at least {@code READ_AHEAD_MIN_KEYS} of them (W2, about 6,800 live keys,
 * and W4, 22,000 to 27,000, ran faster). The released events themselves are read ahead in every round, whatever
 * the key count: the producer thread wrote them a whole inbox earlier, so the first condition that reads one
 * misses, and more so when several shards' inboxes are in flight at once (two shards on W1: 13% faster with it,
 * one shard unchanged).
 *
 * <p>Owned by the shard's worker thread, like the dictionary, buffer and timer service it uses.
 *
 * @param <T> the event type
 */
public final class CepOperator<T> extends KeyedOperator<T> implements KeyInspection {

    /** Where the operator's results go; called on the shard thread. */
    public interface Output<T> {
        /** A complete match of {@code key}, emitted with record timestamp {@code timestamp}. */
        void match(Object key, Match<T> match, long timestamp);

        /** A partial match of {@code key} that timed out at {@code timeoutTimestamp}. */
        void timeout(Object key, Match<T> partialMatch, long timeoutTimestamp);

        /** A late event of {@code key}: its timestamp was not after the watermark when it arrived. */
        void late(Object key, T event, long timestamp);

        /**
         * An event a condition threw on, or that would break the key's bound on partial matches under
         * {@code OverflowPolicy.FAIL}. The key's state is as before the event (the NFA rolls the step back); by
         * default the exception propagates and stops the shard, so no event is lost without saying so.
         */
        default void deadLetter(Object key, T event, long timestamp, RuntimeException error) {
            throw error;
        }

        /**
         * A match of {@code key} that a skip strategy with {@code throwExceptionOnMiss()} dropped (see
         * {@link io.cepheus.nfa.SkipStrategyException}); the key's state is consistent. By default the exception
         * propagates and stops the shard.
         */
        default void skipFailed(Object key, long timestamp, io.cepheus.nfa.SkipStrategyException error) {
            throw error;
        }

        /** @return whether {@link #timeout} is wanted; if not, timed-out partial matches are only counted */
        default boolean wantsTimeouts() {
            return true;
        }
    }

    /** The namespace of this operator's timers in the shared timer service. */
    private final long timerNamespace;
    private final io.cepheus.runtime.internal.timer.TimerHandler timerHandler = this::onTimer;
    private final NfaMatcher<T> matcher;
    private final TimerService timers;
    /** This operator's own buffer, or the one it shares with the shard's other patterns ({@link #shareBuffer}). */
    private EventTimeBuffer<T> buffer;
    /** Null when the buffer is this operator's own. */
    private SharedEventBuffer<T> shared;
    private final Output<T> output;
    private final Emitter emitter = new Emitter();
    /** Null in event time; in processing time, the clock whose time stamps events on arrival. */
    private io.cepheus.runtime.time.Clock processingClock;
    /** Whether events of equal timestamp are ordered by a tie-breaker. */
    private final boolean tieBreaking;
    /**
     * Processing time with a tie-breaker: events that arrive in the same millisecond wait in the buffer until the
     * clock has passed it, and are matched sorted.
     */
    private boolean sortsArrivals;
    private long processingTime = Long.MIN_VALUE;

    /** The rows of the keys a restore read, to be settled once it is complete. */
    private int[] restored = new int[0];
    private int restoredCount;
    /** Each key's row in {@link #states}, {@link #touchedStamp} and {@link #expiries}. */
    private KeyRows rows = KeyRows.keyIds();
    /** A rule version's handle in its rule set's buffer, under which the rule set knows it; else -1. */
    private int ruleHandle = -1;
    private final CompiledPattern<T> pattern;
    /** The traced keys' traces, by key; null while no key is traced, so that untraced work tests one field. */
    private KeyTraces traces;
    /** By row: the key's NFA state, or null when the operator holds no matching state for it. */
    private NfaState[] states;
    /** In event time, when each key next expires (lazy entries; see the class comment). */
    private final KeyDueTimes expiries;
    /** Null in event time; in processing time, each key's expiry timer. */
    private KeyTimer processingExpiryTimer;
    /** Keys read ahead at once (see the class comment). */
    static final int GROUP = GroupPrefetch.GROUP;
    /**
     * Live key states from which reading ahead pays (see the class comment), measured on a machine whose
     * effective cache is 2-3 MB: a state and what it reaches in the shared buffer take a few hundred bytes.
     */
    static final int READ_AHEAD_MIN_KEYS = 4_096;
    private int readAheadMinKeys = READ_AHEAD_MIN_KEYS;
    /** Keys with a state in {@link #states}. */
    private int liveStates;
    /** Whether this watermark's loops read ahead (enough live keys when it began). */
    private boolean readingAhead;
    private final EventTimeBuffer.Lookahead<T> readAhead = this::readAhead;
    /** The sum of the read-ahead values: written once per group so that the reads are not optimized away. */
    private int readAheadSink;
    /** The rows due at the current watermark, taken from {@link #expiries} before they are advanced. */
    private int[] due;
    /** By row: the watermark round in which the key last received an event. */
    private long[] touchedStamp;
    /** The rows that received events in this watermark's round. */
    private int[] touched;
    private int touchedCount;
    private long watermarkRound;
    private long lateEvents;
    private long matches;
    /** Timeouts counted before a restore (the matcher's own counter starts at zero). */
    private long restoredTimeouts;
    /** Rejected partial matches counted before a restore. */
    private long restoredRejections;
    // the counters readers on other threads see, published at the end of each batch
    private static final int P_MATCHES = 0;
    private static final int P_TIMEOUTS = 1;
    private static final int P_PARTIAL = 2;
    private static final int P_REJECTED = 3;
    private static final int P_LATE = 4;
    private static final int P_DEAD = 5;
    private static final int P_STARTED = 6;
    private static final int P_PRUNED = 7;
    private final AtomicLongArray published = new AtomicLongArray(8);
    /** Zeros until the first batch ends: readers always see every stage. */
    private volatile java.util.List<io.cepheus.nfa.StageCounters> publishedStages;
    private final boolean countsStages;

    /**
     * @param operatorId identifies this operator's timers in the shared timer service
     * @param pattern    the compiled pattern
     * @param options    NFA options (bound on partial matches, processing-time clock)
     * @param tieBreaker orders events of equal timestamp of one key before arrival order; null for none
     * @param keys       the shard's key dictionary
     * @param timers     the shard's timer service
     * @param output     receives matches, timeouts and late events
     */
    public CepOperator(int operatorId, CompiledPattern<T> pattern, NfaOptions options,
            Comparator<? super T> tieBreaker, KeyDictionary keys, TimerService timers, Output<T> output) {
        this(operatorId, pattern, options, tieBreaker, keys, timers, output, wheelFor(pattern.windowMillis()), 64);
    }

    private CepOperator(int operatorId, CompiledPattern<T> pattern, NfaOptions options,
            Comparator<? super T> tieBreaker, KeyDictionary keys, TimerService timers, Output<T> output,
            KeyDueWheel wheel, int rowCapacity) {
        super(operatorId, keys, timers);
        this.timerNamespace = io.cepheus.runtime.internal.shard.TimerNamespace.of(operatorId, 0);
        this.expiries = new KeyDueTimes(wheel, rowCapacity);
        this.states = new NfaState[rowCapacity];
        this.due = new int[rowCapacity];
        this.touchedStamp = new long[rowCapacity];
        this.touched = new int[rowCapacity];
        this.pattern = pattern;
        this.matcher = pattern.newMatcher(options);
        this.publishedStages = matcher.stageCounters();
        this.countsStages = options.stageCounters();
        this.timers = timers;
        this.buffer = new EventTimeBuffer<>(tieBreaker);
        this.tieBreaking = tieBreaker != null;
        this.output = output;
    }

    /**
     * A rule version's operator (then made one with {@link #ruleVersionOf}): as the constructor, with a small expiry
     * wheel (see {@link #compactWheelFor}) and per-key arrays that start small.
     *
     * @param operatorId the rule set's id on the shard
     * @param pattern    the version's compiled pattern
     * @param options    NFA options
     * @param tieBreaker orders events of equal timestamp of one key before arrival order; null for none
     * @param keys       the shard's key dictionary
     * @param timers     the shard's timer service
     * @param output     receives matches, timeouts and dead letters
     * @param <T>        the event type
     * @return the operator
     */
    static <T> CepOperator<T> forRuleVersion(int operatorId, CompiledPattern<T> pattern, NfaOptions options,
            Comparator<? super T> tieBreaker, KeyDictionary keys, TimerService timers, Output<T> output) {
        // small arrays to start with: a version matches few keys, and a thousand versions add up
        return new CepOperator<>(operatorId, pattern, options, tieBreaker, keys, timers, output,
                compactWheelFor(pattern.windowMillis()), 4);
    }

    /**
     * Switches this operator to processing time (setup, before events flow): events are matched as they
     * arrive, stamped with {@code clock}'s time (never going back), windows are measured on that clock, and
     * timeouts fire from processing-time timers ({@link #onProcessingTimer}); watermarks are ignored and no event
     * is late. With a tie-breaker, as in Flink, the events that arrive in one millisecond are matched once the
     * clock has passed it, sorted by the tie-breaker (equal ones in arrival order), each stamped with its
     * arrival time.
     */
    public void inProcessingTime(io.cepheus.runtime.time.Clock clock) {
        this.processingClock = java.util.Objects.requireNonNull(clock, "clock");
        this.processingExpiryTimer = new KeyTimer(timers, timerNamespace, false);
        this.sortsArrivals = tieBreaking;
    }

    /**
     * Buffers events in {@code sharedBuffer} together with the shard's other event-time patterns of the same
     * tie-breaker (setup, before events flow; not in processing time): each event is then held once, however
     * many patterns watch the stream.
     */
    public void shareBuffer(SharedEventBuffer<T> sharedBuffer) {
        if (processingClock != null) {
            throw new IllegalStateException("pattern operator " + operatorId + " runs in processing time and"
                    + " buffers nothing");
        }
        this.shared = java.util.Objects.requireNonNull(sharedBuffer, "sharedBuffer");
        this.buffer = sharedBuffer.buffer();
        sharedBuffer.join(this);
    }

    /**
     * Makes this operator one version of a rule set (setup, before it sees events): the rule set's buffer holds the
     * events, and this version sees those that arrive from {@code firstArrival} on (see
     * {@link SharedEventBuffer#forRuleSet}).
     */
    public void ruleVersionOf(SharedEventBuffer<T> ruleSetBuffer, long firstArrival) {
        this.shared = java.util.Objects.requireNonNull(ruleSetBuffer, "ruleSetBuffer");
        this.buffer = ruleSetBuffer.buffer();
        RuleSetDispatch<T> versions = ruleSetBuffer.ruleSet();
        this.rows = KeyRows.heldIn(versions.holders()); // many versions, each matching few of the keys
        if (ruleHandle < 0) { // (a restore makes a version join again: it is told once)
            expiries.onWheelEntry(time -> versions.memberDue(ruleHandle, time));
        }
        this.ruleHandle = versions.joinAt(this, firstArrival);
        rows.holder(ruleHandle);
    }

    /**
     * Ends a watermark for a rule version its rule set visits at this watermark (it received events, or keys of it
     * are due): as {@link #endWatermark()}, at the rule set's watermark, which a version that received nothing in
     * this round has not seen yet. The rule set knows when each version's keys are due (every entry of this
     * operator's expiry table is also one of the rule set's): without {@code keysDue} the table is not looked at.
     */
    void endWatermarkAt(long newWatermark, boolean keysDue) {
        if (newWatermark > watermark) {
            watermark = newWatermark;
        }
        endWatermark(keysDue);
    }

    /** @return this rule version's handle in its rule set's buffer (-1 if it is not one) */
    int ruleHandle() {
        return ruleHandle;
    }

    /** @return what an event must meet to begin a partial match (see {@link CompiledPattern#startConditions}) */
    java.util.List<java.util.List<io.cepheus.pattern.Condition<T>>> startConditions() {
        return pattern.startConditions();
    }

    /**
     * @return what an event must meet to change a waiting partial match, or null if the pattern cannot say (see
     *         {@link CompiledPattern#waitingConditions})
     */
    java.util.List<java.util.List<io.cepheus.pattern.Condition<T>>> waitingConditions() {
        return pattern.waitingConditions().orElse(null);
    }

    /**
     * Drops every partial and held match of every key at once (a rule version retired with its partial matches
     * discarded) and frees the keys nothing else holds.
     *
     * @return how many partial matches were dropped
     */
    public long discardAll() {
        long dropped = 0;
        for (int row = 0; row < states.length; row++) {
            NfaState state = states[row];
            if (state == null) {
                continue;
            }
            dropped += matcher.discard(state);
            expiries.disarm(row);
            if (keyChanges != null) {
                keyChanges.changed(keys.keyOf(rows.keyOf(row)));
            }
            free(row, state);
        }
        return dropped;
    }

    /** Tests: @return how many rows the per-key arrays have room for */
    int rowCapacity() {
        return states.length;
    }

    /** @return how many keys this operator keeps matching state for */
    public int liveKeys() {
        return liveStates;
    }

    /** @return whether this operator adds events to its buffer, writes them to snapshots and counts them */
    private boolean ownsBuffer() {
        return shared == null || shared.owns(this);
    }

    /** Tests: reads ahead from {@code minKeys} live keys instead of {@link #READ_AHEAD_MIN_KEYS} (setup). */
    void readAheadFromKeys(int minKeys) {
        this.readAheadMinKeys = minKeys;
    }

    /** @return whether this operator holds anything for the key id (partial matches, buffered events, timers) */
    @Override
    public boolean holds(int keyId) {
        return stateAt(rows.rowOf(keyId)) != null || buffer.bufferedFor(keyId) > 0;
    }

    /** @return whether this operator keeps an NFA state for the key (partial matches, or one left to settle) */
    public boolean hasState(int keyId) {
        return stateAt(rows.rowOf(keyId)) != null;
    }

    /**
     * The key's open partial matches ({@link io.cepheus.nfa.PartialMatch}), on the shard's thread; an empty list for a
     * key the shard does not know or holds no partial match for (no id is made for it).
     */
    @Override
    public Object inspect(Object key, Object question) {
        if (question instanceof TraceQuestion q) {
            return trace(key, q, "pattern " + operatorId);
        }
        if (question != PARTIAL_MATCHES) {
            throw new IllegalArgumentException("CEP operator " + operatorId + " does not answer " + question);
        }
        return partialMatches(key);
    }

    /**
     * Starts, reads or stops the trace of a key, on the shard's thread (see {@link TraceQuestion}).
     *
     * @param subject what the trace is of, for its readers ({@code "pattern 0"}, {@code "rule r v2"})
     * @return the answer the question's kind says
     */
    io.cepheus.runtime.explain.Explanation trace(Object key, TraceQuestion q, String subject) {
        KeyTraceLog log = traces == null ? null : traces.get(key);
        switch (q.kind()) {
            case START -> {
                if (traces == null) {
                    traces = new KeyTraces();
                }
                log = new KeyTraceLog(key, subject, pattern.stageNames(), q.capacity());
                traces.start(key, log);
                matcher.trace(key, currentState(key), log);
                return null;
            }
            case STOP -> {
                if (log != null) {
                    traces.stop(key);
                    matcher.trace(key, currentState(key), null);
                    if (traces.isEmpty()) {
                        traces = null;
                    }
                }
                return log == null ? null : log.explanation();
            }
            default -> {
                return log == null ? null : log.explanation();
            }
        }
    }

    /** An event of key {@code id} that began nothing on a key without state: a traced key's trace shows it. */
    private void traceUnstarted(int id, T event, long timestamp) {
        KeyTraceLog log = traces.scan(keys.keyOf(id));
        if (log != null) {
            log.add(new io.cepheus.nfa.trace.TraceEntry.Event(timestamp, event));
        }
    }

    /** @return the key's NFA state, null if it has none */
    private NfaState currentState(Object key) {
        int id = keys.existingId(key);
        return id < 0 ? null : stateAt(rows.rowOf(id));
    }

    /** @return the key's open partial matches (see {@code PatternStream#partialMatches}) */
    java.util.List<io.cepheus.nfa.PartialMatch<T>> partialMatches(Object key) {
        NfaState st = currentState(key);
        return st == null ? java.util.List.of() : matcher.partialMatches(st);
    }

    /** @return the NFA state in {@code row}, or null if there is none (or no such row: -1, past the arrays) */
    private NfaState stateAt(int row) {
        return row >= 0 && row < states.length ? states[row] : null;
    }

    /**
     * An event of {@code key} at event time {@code timestamp}.
     *
     * @param key       the key (from the stream's key selector)
     * @param event     the event
     * @param timestamp its event time
     */
    @Override
    public void processElement(Object key, T event, long timestamp) {
        if (processingClock != null) {
            processingTime = Math.max(processingTime, processingClock.millis());
            int id = keys.idOf(key);
            if (sortsArrivals) {
                buffer.add(id, event, processingTime);
                releaseArrivalsAt(id, processingTime + 1);
                return;
            }
            int row = rows.rowOf(id);
            if (stateAt(row) == null && matcher.ignoredByNewState(event)) {
                if (traces != null) {
                    traceUnstarted(id, event, processingTime);
                }
                keyRelease.idle(id);
                return;
            }
            row = rowWithState(id, row);
            emitter.set(id, processingTime);
            process(id, states[row], event, processingTime, true);
            settle(row);
            return;
        }
        if (timestamp <= watermark) {
            lateEvents++;
            KeyTraceLog log = traces == null ? null : traces.get(key);
            if (log != null) {
                log.add(new io.cepheus.nfa.trace.TraceEntry.Late(timestamp, event, watermark));
            }
            output.late(key, event, timestamp);
            return;
        }
        if (ownsBuffer()) {
            buffer.add(keys.idOf(key), event, timestamp);
        }
    }

    /**
     * The shard's watermark advanced: match what it released and time out what expired.
     *
     * @param newWatermark the new watermark; not above the current one is ignored
     */
    public void processWatermark(long newWatermark) {
        if (beginWatermark(newWatermark)) {
            timers.advanceWatermark(newWatermark, timerHandler);
            endWatermark();
        }
    }

    /**
     * First half of a watermark when several operators share the shard's timer service: releases the buffered
     * events up to the watermark and advances the keys that received some. The shard then fires the due
     * timers once, handing each to the operator it belongs to ({@link #onTimer}), and calls
     * {@link #endWatermark()} on every operator.
     *
     * @return false if the watermark does not advance this operator (then skip the rest)
     */
    @Override
    public boolean beginWatermark(long newWatermark) {
        if (processingClock != null || newWatermark <= watermark) {
            return false;
        }
        watermark = newWatermark;
        if (shared == null) {
            openRound();
            buffer.releaseUpTo(newWatermark, this::match, readAhead);
        } else {
            shared.release(newWatermark); // once for all its patterns; opens this one's round too
        }
        if (traces != null) {
            for (KeyTraceLog log : traces.all()) {
                log.watermark(newWatermark); // after the events it released, before what it times out
            }
        }
        for (int i = 0; i < touchedCount; i++) {
            if (readingAhead && i % GROUP == 0) {
                readAhead(touched, i, Math.min(touchedCount, i + GROUP));
            }
            int row = touched[i];
            emitter.set(rows.keyOf(row), newWatermark);
            advance(states[row], newWatermark);
        }
        return true;
    }

    /** Starts a watermark's round: the keys that events reach from here on are advanced at its end. */
    void openRound() {
        watermarkRound++;
        touchedCount = 0;
        readingAhead = liveStates >= readAheadMinKeys;
    }

    /** @return the lookahead for this round's release */
    EventTimeBuffer.Lookahead<T> lookahead() {
        return readAhead;
    }

    /**
     * One of this operator's processing-time timers fired (processing-time mode; the shard dispatches them
     * from its duty cycle): the key's time advances to {@code now}.
     *
     * @param id  the key id
     * @param now the current processing time
     */
    @Override
    public void onProcessingTimer(int id, long namespace, long timestamp, long now) {
        if (!processingExpiryTimer.fired(id, timestamp)) {
            return;
        }
        processingTime = Math.max(processingTime, now);
        if (sortsArrivals) {
            matchArrivalsBefore(processingTime);
        }
        int row = rows.rowOf(id);
        if (stateAt(row) != null) {
            emitter.set(id, processingTime);
            advance(states[row], processingTime);
            settle(row);
        } else if (buffer.bufferedFor(id) > 0) {
            releaseArrivalsAt(id, processingTime + 1);
        } else if (keys.keyAt(id) != null) { // (matching its arrivals may have freed it already)
            keyRelease.idle(id);
        }
    }

    /**
     * Processing time with a tie-breaker: matches every buffered arrival of a millisecond before {@code now}, in
     * (arrival time, tie-breaker, arrival) order as Flink's operator does at its timer for that millisecond, then
     * advances the keys that received some to {@code now}.
     */
    private void matchArrivalsBefore(long now) {
        openRound();
        readingAhead = false;
        buffer.releaseUpTo(now - 1, this::match, null);
        for (int i = 0; i < touchedCount; i++) {
            int row = touched[i];
            emitter.set(rows.keyOf(row), now);
            advance(states[row], now);
            settle(row);
        }
        touchedCount = 0;
    }

    /** Processing time with a tie-breaker: the key's timer fires by {@code time}, to match its arrivals. */
    private void releaseArrivalsAt(int id, long time) {
        long at = processingExpiryTimer.at(id);
        if (at == KeyTimer.NONE || at > time) {
            processingExpiryTimer.moveTo(id, time);
        }
    }

    /**
     * Last half of a watermark: advances the keys whose partial matches expired (in expiry, then key id order),
     * then re-arms the expiry of the keys that received events and frees idle keys.
     */
    @Override
    public void endWatermark() {
        endWatermark(true);
    }

    private void endWatermark(boolean keysDue) {
        if (keysDue) {
            expiries.collectDue(watermark);
        }
        // The due keys are taken out first, in their (expiry, key id) order, so that they can be read ahead in
        // groups. Advancing and settling a due key changes only that key's entry, and re-arms it after the
        // watermark (what is left of its partial matches expires later), so no key comes out differently than
        // if each were advanced as it comes out; the loop repeats should one be due again all the same.
        for (int count = takeDueKeys(); count > 0; count = takeDueKeys()) {
            for (int i = 0; i < count; i++) {
                if (readingAhead && i % GROUP == 0) {
                    readAhead(due, i, Math.min(count, i + GROUP));
                }
                int row = due[i];
                NfaState state = states[row];
                if (state == null || touchedStamp[row] == watermarkRound) {
                    continue; // a touched key was advanced already and is settled below
                }
                emitter.set(rows.keyOf(row), watermark);
                advance(state, watermark);
                settle(row);
            }
        }
        for (int i = 0; i < touchedCount; i++) {
            if (readingAhead && i % GROUP == 0) {
                readAhead(touched, i, Math.min(touchedCount, i + GROUP));
            }
            settle(touched[i]);
        }
        touchedCount = 0;
    }

    /** Moves the rows due now from {@link #expiries} into {@link #due}, in order; @return how many */
    private int takeDueKeys() {
        int count = 0;
        for (int row = expiries.pollDue(); row >= 0; row = expiries.pollDue()) {
            if (count == due.length) {
                due = Arrays.copyOf(due, count * 2);
            }
            due[count++] = row;
        }
        return count;
    }

    /** Reads ahead the states in the rows {@code rowList[from .. to)} (see the class comment). */
    private void readAhead(int[] rowList, int from, int to) {
        NfaState[] sts = states;
        int sum = 0;
        for (int i = from; i < to; i++) {
            int row = rowList[i];
            if (row < sts.length && sts[row] != null) {
                sum += CacheHints.touchState(sts[row]);
            }
        }
        for (int i = from; i < to; i++) {
            int row = rowList[i];
            if (row < sts.length && sts[row] != null) {
                sum += CacheHints.touchPartialMatches(sts[row]);
            }
        }
        readAheadSink += sum;
    }

    /** A key that the shared buffer no longer holds events of: freed unless an operator still holds it. */
    void idleUnlessHeld(int id) {
        keyRelease.idle(id);
    }

    /**
     * Reads ahead the next released events, which their conditions read, and, in rounds that read ahead key
     * states, those events' key states (see the class comment).
     */
    private void readAhead(EventTimeBuffer<T> released, int n) {
        NfaState[] sts = states;
        // compact rows would cost a lookup per key: a rule version holds few keys, whose states are not read ahead
        boolean keyStates = readingAhead && rows.areKeyIds();
        int sum = 0;
        if (keyStates) {
            for (int i = 0; i < n; i++) {
                int id = released.upcomingKey(i);
                if (id < sts.length && sts[id] != null) {
                    sum += CacheHints.touchState(sts[id]);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            if (keyStates) {
                int id = released.upcomingKey(i);
                if (id < sts.length && sts[id] != null) {
                    sum += CacheHints.touchPartialMatches(sts[id]);
                }
            }
            sum += GroupPrefetch.touch(released.upcomingEvent(i));
        }
        readAheadSink += sum;
    }

    /** A released event of key {@code id}; with a shared buffer the buffer frees idle keys once all have seen it. */
    void match(int id, T event, long timestamp) {
        int row = rows.rowOf(id);
        if (stateAt(row) == null) {
            if (matcher.ignoredByNewState(event)) {
                // A key without state whose event would start nothing gets no state, and is freed once nothing
                // else holds it: on sparse patterns most events fall on idle keys (W1: an 'N' on a key with no open
                // streak), and making a state, matching and freeing it again cost more than the question
                // (PairedBuilds, 16-20 rounds: engine W1 +13%, W4 +7%, W2 +5%, W3 unchanged).
                ignoredWithoutState(id, event, timestamp);
                return;
            }
            row = rowWithState(id, row);
        }
        touch(row);
        emitter.set(id, timestamp);
        process(id, states[row], event, timestamp, true);
    }

    /** An event of key {@code id}, which has no state, that begins nothing: the key is let go if nothing holds it. */
    private void ignoredWithoutState(int id, T event, long timestamp) {
        if (traces != null) {
            traceUnstarted(id, event, timestamp);
        }
        if (shared == null && buffer.bufferedFor(id) == 0) {
            keyRelease.idle(id);
        }
    }

    /**
     * A released event of key {@code id}, which the rule set knows no version holds state for: no lookup of its row,
     * a state only if the event starts something.
     */
    void matchUnheld(int id, T event, long timestamp) {
        if (matcher.ignoredByNewState(event)) {
            if (traces != null) {
                traceUnstarted(id, event, timestamp);
            }
            return;
        }
        int row = rowWithState(id, -1);
        touch(row);
        emitter.set(id, timestamp);
        process(id, states[row], event, timestamp, true);
    }

    /** Adds the row to this round's touched rows, once. */
    private void touch(int row) {
        if (touchedStamp[row] != watermarkRound) {
            touchedStamp[row] = watermarkRound;
            if (touchedCount == touched.length) {
                touched = Arrays.copyOf(touched, touchedCount * 2);
            }
            touched[touchedCount++] = row;
        }
    }

    /**
     * A released event of key {@code id} for a rule version being drained: it may extend the key's partial matches,
     * and begins none; a key without state has nothing to extend.
     */
    void matchWithoutStarting(int id, T event, long timestamp) {
        int row = rows.rowOf(id);
        NfaState state = stateAt(row);
        if (state == null) {
            return;
        }
        touch(row);
        emitter.set(id, timestamp);
        process(id, state, event, timestamp, false);
    }

    /**
     * Matches one event of key {@code id} (its emitter set). What the pattern itself fails on is handed to the
     * output and the caller goes on, so that one key's failure leaves the rest of the batch matched: an event a
     * condition threw on, or that would break the key's bound on partial matches under {@code OverflowPolicy.FAIL}
     * (the NFA rolled the step back: a dead letter), and a match a throwing skip strategy dropped (the step was
     * completed).
     *
     * @param starting whether the event may also begin a partial match (false: a version being drained)
     */
    private void process(int id, NfaState state, T event, long timestamp, boolean starting) {
        try {
            if (starting) {
                matcher.process(state, event, timestamp, emitter);
            } else {
                matcher.processWithoutStarting(state, event, timestamp, emitter);
            }
        } catch (io.cepheus.nfa.ConditionException | io.cepheus.nfa.PartialMatchLimitException e) {
            deadLetters++;
            output.deadLetter(keys.keyOf(id), event, timestamp, e);
        } catch (io.cepheus.nfa.SkipStrategyException e) {
            output.skipFailed(keys.keyOf(id), timestamp, e);
        }
    }

    /** Advances the emitter's key to {@code time}; a dropped match goes to the output, as above. */
    private void advance(NfaState state, long time) {
        try {
            matcher.advanceTime(state, time, emitter);
        } catch (io.cepheus.nfa.SkipStrategyException e) {
            output.skipFailed(keys.keyOf(emitter.id), time, e);
        }
    }

    /**
     * An event-time timer of this operator's namespace fired. It registers none (event-time expiry is kept in
     * {@link KeyDueTimes}), so one arriving means the shard's dispatch is broken.
     *
     * @throws IllegalStateException always
     */
    @Override
    public void onTimer(int id, long namespace, long timestamp) {
        throw new IllegalStateException("event-time timer (key id " + id + ", namespace " + namespace + ", time "
                + timestamp + ") handed to CEP operator " + operatorId + ", which registers none");
    }

    /** Puts the expiry of the key in {@code row} where its state needs it, and frees the key when nothing is pending. */
    private void settle(int row) {
        int id = rows.keyOf(row);
        NfaState state = states[row];
        if (keyChanges != null) {
            keyChanges.changed(keys.keyOf(id));
        }
        long due = state.expiryTime(); // Long.MAX_VALUE: nothing can expire
        if (sortsArrivals && buffer.bufferedFor(id) > 0) {
            due = Math.min(due, processingTime + 1); // its arrivals of this millisecond are matched then
        }
        boolean expiryPending;
        if (processingExpiryTimer == null) {
            if (due == Long.MAX_VALUE) {
                expiries.disarm(row); // an entry still in the wheel is skipped when it comes out
            } else {
                expiries.next(row, due);
                expiries.armIfEarlier(row, due, watermark);
            }
            expiryPending = due != Long.MAX_VALUE;
        } else {
            expiryPending = settleProcessingTimer(id, due);
        }
        if (!expiryPending && state.isEmpty() && buffer.bufferedFor(id) == 0) {
            free(row, state);
        }
    }

    /** Drops the key's state from its row (its expiry disarmed) and frees the key unless something else holds it. */
    private void free(int row, NfaState state) {
        int id = rows.keyOf(row);
        states[row] = null;
        liveStates--;
        matcher.release(state); // recycled for the next new key: no allocation per short-lived key
        rows.remove(id, row); // (for a rule version: the rule set no longer counts it among the key's holders)
        keyRelease.idle(id);
    }

    /** @return whether the key keeps a processing-time timer */
    private boolean settleProcessingTimer(int id, long due) {
        long at = processingExpiryTimer.at(id);
        // A later expiry keeps the earlier timer (it fires early and is re-armed by onProcessingTimer's settle): a
        // heap delete plus insert per event cost more than an occasional early firing. An earlier expiry, or
        // none, moves the timer at once.
        boolean keepEarlierTimer = at != KeyTimer.NONE && due != Long.MAX_VALUE && due > at;
        if (!keepEarlierTimer) {
            processingExpiryTimer.moveTo(id, due == Long.MAX_VALUE ? KeyTimer.NONE : due);
        }
        return processingExpiryTimer.at(id) != KeyTimer.NONE;
    }

    /**
     * Wheel slices of 1/256 of the pattern's window, enough buckets for four windows. A pattern without a
     * whole-pattern window expires only through a stage's gap ({@code PREVIOUS_AND_CURRENT}), of unknown length
     * here: a minute's scale keeps later-lap entries (re-checked once per lap) rare for gaps up to minutes.
     */
    private static KeyDueWheel wheelFor(long window) {
        long scale = window > 0 ? window : 60_000;
        return KeyDueWheel.sizedFor(scale, 4 * Math.min(scale, Long.MAX_VALUE / 8));
    }

    /**
     * A rule version's wheel: 8 buckets of about the window (four windows and more a lap), so that the due times of
     * a window fill two or three buckets. It holds the few keys the version matches, so coarse slices cost little
     * (an entry is looked at when its version is due, a few times before its own time), and a rule set of a
     * thousand versions keeps a thousand small tables, not a thousand of a few thousand buckets each or of dozens
     * of half-empty bucket arrays each (measured on W5 with 1,000 rules: 7 MB of the rule set's heap); an emptied
     * bucket gives its array back.
     */
    private static KeyDueWheel compactWheelFor(long window) {
        long scale = window > 0 ? window : 60_000;
        return new KeyDueWheel(Math.max(1, Long.highestOneBit(scale)), 8, 16);
    }

    /**
     * @param row the key's row ({@link KeyRows#rowOf}), -1 if it has none
     * @return the key's row, holding a state: {@code row}, or a new one with a new state
     */
    private int rowWithState(int id, int row) {
        if (row < 0) {
            row = rows.add(id);
        }
        if (row >= states.length) {
            int n = Math.max(row + 1, states.length * 2);
            states = Arrays.copyOf(states, n);
            touchedStamp = Arrays.copyOf(touchedStamp, n);
            expiries.ensureKeys(n);
        }
        if (states[row] == null) {
            states[row] = matcher.newState(keys.keyOf(id));
            liveStates++;
            touchedStamp[row] = 0;
        }
        return row;
    }

    /**
     * Writes this operator's state (watermark, counters, every key's NFA state, the buffered events) for a
     * snapshot taken while the shard is between batches.
     */
    @Override
    public void writeState(java.io.DataOutput out, io.cepheus.nfa.EventCodec<T> events,
            io.cepheus.nfa.EventCodec<Object> keyCodec) throws java.io.IOException {
        writeHeader(out);
        int live = 0;
        for (NfaState st : states) {
            live += st == null ? 0 : 1;
        }
        out.writeInt(live);
        for (int row = 0; row < states.length; row++) {
            if (states[row] != null) {
                writeKey(out, keyCodec, rows.keyOf(row));
                matcher.writeState(states[row], events, out);
            }
        }
        if (!ownsBuffer()) {
            out.writeInt(0); // the shared buffer's events are written once, by its owner
            return;
        }
        out.writeInt(buffer.size());
        java.io.IOException[] failure = new java.io.IOException[1];
        buffer.forEachInOrder((id, event, ts) -> {
            if (failure[0] == null) {
                try {
                    writeKey(out, keyCodec, id);
                    out.writeLong(ts);
                    events.write(event, out);
                } catch (java.io.IOException e) {
                    failure[0] = e;
                }
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    /** Restores what {@link #writeState} wrote into this fresh operator, re-arming the keys' timers. */
    @Override
    public void readState(java.io.DataInput in, io.cepheus.nfa.EventCodec<T> events,
            io.cepheus.nfa.EventCodec<Object> keyCodec) throws java.io.IOException {
        readState(in, events, keyCodec, RestoreScope.EXACT);
    }

    /**
     * Restores what {@link #writeState} wrote, keeping the keys {@code scope} keeps: the others' matching states
     * and buffered events are read and let go. Called once per part when the engine has another number of shards.
     */
    @Override
    public void readState(java.io.DataInput in, io.cepheus.nfa.EventCodec<T> events,
            io.cepheus.nfa.EventCodec<Object> keyCodec, RestoreScope scope) throws java.io.IOException {
        readHeader(in, scope);
        int live = readCount(in, "a pattern operator with %d keys");
        for (int i = 0; i < live; i++) {
            Object key = keyCodec.read(in);
            if (!scope.keeps(key)) {
                // another shard's key: its state is read, and given back at once
                NfaState elsewhere = matcher.readState(key, events, in);
                matcher.discard(elsewhere);
                matcher.release(elsewhere);
                continue;
            }
            readKeyState(key, in, events);
        }
        int buffered = readCount(in, "a pattern operator with %d buffered events");
        for (int i = 0; i < buffered; i++) {
            Object key = keyCodec.read(in);
            long ts = in.readLong();
            if (processingClock == null && ts <= watermark) {
                // a buffered event waits for a watermark at or after its time; one already passed was released
                throw new java.io.IOException("key " + key + " has an event at time " + ts
                        + " waiting for the watermark, which is already at " + watermark);
            }
            T event = events.read(in);
            if (!scope.keeps(key)) {
                continue;
            }
            int id = keys.idOf(key);
            buffer.add(id, event, ts);
            if (sortsArrivals) {
                releaseArrivalsAt(id, ts + 1);
            }
        }
        settleRestored();
    }

    /**
     * Writes the operator's time and counters: the part of its state that names no key. A host that keeps each key's
     * state as it changes ({@link #writeKeyState}) writes this once per commit of its own.
     */
    public void writeHeader(java.io.DataOutput out) throws java.io.IOException {
        out.writeLong(watermark);
        out.writeLong(processingTime);
        out.writeLong(lateEvents);
        out.writeLong(deadLetters);
        out.writeLong(matches);
        out.writeLong(timeouts());
        out.writeLong(rejectedPartialMatches());
    }

    /**
     * Restores what {@link #writeHeader} wrote, first in a restore; counters are added up as {@code scope} says.
     */
    public void readHeader(java.io.DataInput in, RestoreScope scope) throws java.io.IOException {
        watermark = in.readLong(); // the same in every part: the shards' watermarks are checked to be equal
        processingTime = scope.exact() ? in.readLong() : Math.max(processingTime, in.readLong());
        lateEvents = scope.counted(lateEvents, in.readLong());
        deadLetters = scope.counted(deadLetters, in.readLong());
        matches = scope.counted(matches, in.readLong());
        // nothing is emitted or rejected while restoring: the matcher's own counts are still what they started at
        restoredTimeouts = scope.counted(restoredTimeouts, in.readLong() - matcher.timeoutsEmitted());
        restoredRejections = scope.counted(restoredRejections, in.readLong() - matcher.rejectedPartialMatches());
    }

    /**
     * Writes the matching state of one key (its partial and held matches; not its buffered events), for a host that
     * keeps each key's state as it changes instead of whole snapshots.
     *
     * @return false, having written nothing, if this operator holds no matching state for the key
     */
    public boolean writeKeyState(int keyId, java.io.DataOutput out, io.cepheus.nfa.EventCodec<T> events)
            throws java.io.IOException {
        NfaState state = stateAt(rows.rowOf(keyId));
        if (state == null) {
            return false;
        }
        matcher.writeState(state, events, out);
        return true;
    }

    /**
     * Restores one key's matching state that {@link #writeKeyState} wrote, after {@link #readHeader}; the key is
     * settled (its expiry armed, or freed if nothing is left) by {@link #settleRestored()}, once the buffered events
     * are back too.
     *
     * @throws java.io.IOException if the state is at a time after the operator's watermark (or processing time)
     */
    public void readKeyState(Object key, java.io.DataInput in, io.cepheus.nfa.EventCodec<T> events)
            throws java.io.IOException {
        int id = keys.idOf(key); // holds(id) may be true already: the shared buffer is restored first
        int row = rowWithState(id, rows.rowOf(id)); // sizes the per-key arrays
        matcher.release(states[row]);
        states[row] = matcher.readState(key, events, in);
        long now = processingClock != null ? processingTime : watermark;
        if (states[row].currentTime() > now) {
            // a key is only ever advanced to events the watermark (or clock) released, never beyond it
            throw new java.io.IOException("key " + key + "'s matching state is at time "
                    + states[row].currentTime() + ", after the "
                    + (processingClock != null ? "processing time " : "watermark ") + now + " it was written at");
        }
        if (restoredCount == restored.length) {
            restored = Arrays.copyOf(restored, Math.max(16, restoredCount * 2));
        }
        restored[restoredCount++] = row;
    }

    /**
     * Settles the keys restored since the last call, once their buffered events are back: a key whose state is empty
     * but has events waiting keeps its state, as in the engine that wrote it (freeing it would change when the key
     * is advanced).
     */
    public void settleRestored() {
        for (int r = 0; r < restoredCount; r++) {
            settle(restored[r]);
        }
        restoredCount = 0;
        restored = new int[0];
    }

    /** @return the watermark this operator has processed up to */
    public long watermark() {
        return watermark;
    }

    /** @return late events so far */
    @Override
    public long lateEvents() {
        return lateEvents;
    }

    /** @return partial matches dropped at a key's bound so far */
    @Override
    public long rejectedPartialMatches() {
        return restoredRejections + matcher.rejectedPartialMatches();
    }

    /** Publishes the counters for readers on other threads ({@link #publishedPatternMetrics}); shard thread. */
    @Override
    public void endOfBatch() {
        published.lazySet(P_MATCHES, matches);
        published.lazySet(P_TIMEOUTS, timeouts());
        published.lazySet(P_PARTIAL, partialMatches());
        published.lazySet(P_REJECTED, rejectedPartialMatches());
        published.lazySet(P_LATE, lateEvents);
        published.lazySet(P_DEAD, deadLetters);
        published.lazySet(P_STARTED, matcher.partialMatchesStarted());
        published.lazySet(P_PRUNED, matcher.partialMatchesPruned());
        if (countsStages) {
            publishedStages = matcher.stageCounters(); // a few small objects per batch, never per event
        }
    }

    @Override
    public PatternMetrics publishedPatternMetrics() {
        return new PatternMetrics(operatorId, published.get(P_MATCHES), published.get(P_TIMEOUTS),
                published.get(P_PARTIAL), published.get(P_REJECTED), published.get(P_LATE), published.get(P_DEAD),
                published.get(P_STARTED), published.get(P_PRUNED), publishedStages);
    }

    /** @return live partial matches over this operator's keys */
    @Override
    public long partialMatches() {
        return matcher.livePartialMatches();
    }

    /** @return matches emitted so far */
    @Override
    public long matches() {
        return matches;
    }

    /** @return timeouts so far (counted whether or not a timeout handler is set) */
    @Override
    public long timeouts() {
        return restoredTimeouts + matcher.timeoutsEmitted();
    }

    /** @return events waiting for the watermark */
    @Override
    public long bufferedEvents() {
        return ownsBuffer() ? buffer.size() : 0; // a shared buffer's events are counted once
    }

    /** @return shared-buffer entries held by this operator's partial matches */
    @Override
    public long bufferedEntries() {
        return matcher.bufferedEntries();
    }

    /** Forwards the NFA's results with the key and the record timestamp of the step that produced them. */
    private final class Emitter implements MatchSink<T> {
        private int id;
        private long timestamp;

        void set(int keyId, long recordTimestamp) {
            this.id = keyId;
            this.timestamp = recordTimestamp;
        }

        @Override
        public void onMatch(Match<T> match) {
            matches++;
            output.match(keys.keyOf(id), match, timestamp);
        }

        @Override
        public void onTimeout(Match<T> partialMatch, long timeoutTimestamp) {
            output.timeout(keys.keyOf(id), partialMatch, timeoutTimestamp);
        }

        @Override
        public boolean wantsTimeouts() {
            return output.wantsTimeouts();
        }
    }
}

package io.cepheus.nfa.internal;

import io.cepheus.nfa.ConditionException;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaState;
import io.cepheus.nfa.PartialMatchLimitException;
import io.cepheus.nfa.trace.EndReason;
import io.cepheus.nfa.trace.TraceEntry;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Runs a {@link Program} over the keys of one matcher, one event at a time, with Flink CEP's step
 * semantics (Flink 2.x {@code NFA#process} / {@code NFA#advanceTime}):
 *
 * <ol>
 *   <li>Advancing time first times out partial matches whose window closed (first event + window, or
 *       previous event + a stage's gap); a timed-out PENDING state (trailing {@code notFollowedBy}) is a
 *       match instead.</li>
 *   <li>For each partial match, in queue order, and last for the start state: follow PROCEED edges whose
 *       condition holds (depth first), collect the TAKE and IGNORE edges whose condition holds, and turn each
 *       into a new partial match; a TAKE also stores the event in the {@link SharedBuffer}. If any branch
 *       reaches a STOP state (a NOT stage saw its event) all new partial matches of that one are
 *       discarded; branches that reach the final state are matches.</li>
 *   <li>Without a skip strategy matches (those a trailing {@code notFollowedBy} releases too) are emitted at
 *       once, by start. With one, they are held while a partial match that started earlier is alive, then
 *       released in start order, each pruning what the strategy discards.</li>
 * </ol>
 * Partial and held matches are kept in the array order of the priority queues Flink keeps them in
 * ({@link StartQueue}): among equal starts that order, not completion order, decides what a skip strategy
 * releases first.
 *
 * <p>A step is computed into scratch arrays and committed only when it completes, so an exception from a
 * condition leaves the key's state as it was. Simple conditions are evaluated once per event whatever the
 * number of partial matches; iterative ones once per partial match.
 *
 * <p>Its parts: {@link EdgeDecisions} picks the edges an event follows (conditions evaluated as seldom as the
 * semantics allow), {@link SharedBuffer} stores events and partial matches, {@link KeyState} holds one key's
 * partial and held matches, {@link ExpiryTimes} says when they time out, {@link TimeoutBatch} reports each timed-out
 * partial match once, and {@link AfterMatchPruning} applies the skip strategy. This class runs the step itself.
 *
 * <p>Not thread-safe: owned by one thread, with the {@link KeyState}s it creates.
 *
 * @param <T> the event type
 */
public final class NfaEngine<T> {

    /** Builds the public {@link Match} from the raw arrays. */
    @FunctionalInterface
    public interface MatchFactory {
        /**
         * @param stageNames all stage names
         * @param events     events, oldest first
         * @param stageOf    stage index per event
         * @param times      event time per event
         * @param <T>        the event type
         * @return the match
         */
        <T> Match<T> create(List<String> stageNames, Object[] events, int[] stageOf, long[] times);
    }

    private static final int NONE = SharedBuffer.NONE;

    private final Program<T> program;
    private final int maxPartialMatches;
    /** Bound on the buffer entries one key keeps alive ({@link KeyState#entries}). */
    private final int maxEntries;
    private final boolean failOnOverflow;
    private final MatchFactory matchFactory;
    private final SharedBuffer buffer = new SharedBuffer();
    private final ExpiryTimes expiry;
    /** Whether matches wait for earlier-starting partial matches (an after-match skip strategy is set). */
    private final boolean skipping;

    // scratch of the step being computed
    private int newCount;
    private long[] next = new long[16 * KeyState.STRIDE];
    /** Whether new partial match k took over the buffer reference of the partial match it came from. */
    private boolean[] nextInherits = new boolean[16];
    /** Whether new partial match k continues an old one (is its first successor), see {@link #rejectNew}. */
    private boolean[] nextContinues = new boolean[16];
    /** The slot of the continuation of the partial match being branched; -1 while the start state branches. */
    private int continuationSlot = -1;
    /** Buffer references of successors {@link #rejectNew} dropped, released after the commit. */
    private int[] droppedRefs = new int[16];
    /** Whether old partial match i handed its buffer reference to a successor (so it is not released). */
    private boolean[] oldInherited = new boolean[16];
    /** How many new partial matches inherit their reference (commit locks none when all do; -1: unknown). */
    private int inheritingNew;
    /** How many old partial matches handed their reference on (commit releases none when all did). */
    private int inheritedOld;
    /** How many old partial matches ignored the event and live on unchanged, in place (see {@link #step}). */
    private int keptUnchanged;
    private int branchOrigin;
    /** How the partial match being branched passed on its buffer reference, if it did. */
    private byte branchInherit;
    private static final byte INHERIT_NONE = 0;
    private static final byte INHERIT_BY_IGNORE = 1;
    private static final byte INHERIT_BY_TAKE = 2;
    /** Whether created entry k adopted its origin's reference to its predecessor. */
    private boolean[] createdAdopts = new boolean[16];
    private int matchCount;
    private int[] matchEntry = new int[8];
    private long[] matchStartSeq = new long[8];
    private int createdCount;
    private int[] created = new int[16];
    private final EdgeDecisions<T> decisions;
    private final TimeoutBatch timeouts = new TimeoutBatch(buffer);
    private final AfterMatchPruning pruning;
    /** Scratch for rebuilding a key's queue of partial matches ({@link StartQueue}), STRIDE longs each. */
    private long[] queue = new long[16 * KeyState.STRIDE];

    // the event being matched
    private T event;
    private long eventTime;
    private long eventSeq;
    private int eventSlot = NONE;
    private long seqCounter;

    private long rejected;
    private long livePartialMatches;

    /** Whether the per-stage counters below count (they cost a few percent on the cheapest patterns). */
    private final boolean counting;
    // counters by state, summed by stage when read (one increment on the step's path, no lookup of the stage)
    /** Per state: partial matches in it (the start state: events) an event was tested against. */
    private final long[] testedIn;
    /** Per stage: events it took. */
    private final long[] takenAt;
    /** Per state: partial matches that timed out in it. */
    private final long[] timedOutIn;
    /** Per state: partial matches in it that an event ended (no condition held, or a NOT stage saw it). */
    private final long[] endedIn;
    private long started;
    /** Partial matches the start state began in the step under way, counted once it commits. */
    private int startedInStep;
    private long pruned;

    /** The traced keys' tracers, by key; null while no key is traced, so that untraced work never looks. */
    private java.util.Map<Object, KeyTracer> tracers;
    /** The tracer of the key being worked on, null if it is not traced (the hooks' one test). */
    private KeyTracer tracer;
    /** The STOP state the branch being computed last reached (a NOT stage saw its event), for the trace. */
    private int lastStopState;
    private long matchesEmitted;
    private long timeoutsEmitted;

    /**
     * @param program           the compiled pattern
     * @param maxPartialMatches bound per key
     * @param maxEntries        bound on the buffer entries one key keeps alive
     * @param failOnOverflow    throw instead of dropping new partial matches beyond the bound (see
     *                          {@link io.cepheus.nfa.OverflowPolicy} for what the bound counts)
     * @param processingTime    the processing-time clock conditions may read
     * @param stageCounters     whether to count per stage ({@link #stageCounters()})
     * @param matchFactory      builds matches
     */
    public NfaEngine(Program<T> program, int maxPartialMatches, int maxEntries, boolean failOnOverflow,
            LongSupplier processingTime, boolean stageCounters, MatchFactory matchFactory) {
        this.program = program;
        this.maxPartialMatches = maxPartialMatches;
        this.maxEntries = maxEntries;
        this.failOnOverflow = failOnOverflow;
        this.matchFactory = matchFactory;
        this.expiry = new ExpiryTimes(program);
        this.pruning = new AfterMatchPruning(program, buffer, expiry);
        this.skipping = program.skipStrategy.isSkipping();
        this.decisions = new EdgeDecisions<>(program, buffer, processingTime);
        this.counting = stageCounters;
        this.testedIn = new long[program.stateCount()];
        this.takenAt = new long[program.stageNames.size()];
        this.timedOutIn = new long[program.stateCount()];
        this.endedIn = new long[program.stateCount()];
    }

    private static final int POOL_LIMIT = 4096;
    private KeyState[] pool = new KeyState[16];
    private int pooled;

    /** @param key for messages @return an empty key state owned by this engine (a recycled one if any) */
    public NfaState newState(Object key) {
        KeyState st;
        if (pooled > 0) {
            st = pool[--pooled];
            pool[pooled] = null;
            st.reuseFor(key);
        } else {
            st = new KeyState(this, key);
        }
        if (tracers != null) {
            st.traced(tracers.containsKey(key));
        }
        return st;
    }

    private static final int SNAPSHOT_MAGIC = 0x4345504E; // "CEPN"
    /** 2: the fingerprint covers the whole structure (gaps, window, condition shapes, skip strategy). */
    private static final int SNAPSHOT_VERSION = 2;

    /** See {@code NfaMatcher#writeState}. */
    public void writeState(NfaState nfaState, io.cepheus.nfa.EventCodec<T> codec, java.io.DataOutput out)
            throws java.io.IOException {
        KeyState st = own(nfaState);
        out.writeInt(SNAPSHOT_MAGIC);
        out.writeInt(SNAPSHOT_VERSION);
        out.writeLong(fingerprint());
        StateSnapshots.write(this, st, buffer, codec, out);
    }

    /** See {@code NfaMatcher#readState}. */
    public NfaState readState(Object key, io.cepheus.nfa.EventCodec<T> codec, java.io.DataInput in)
            throws java.io.IOException {
        int magic = in.readInt();
        if (magic != SNAPSHOT_MAGIC) {
            throw new java.io.IOException("not a Cepheus NFA state snapshot (magic " + Integer.toHexString(magic) + ")");
        }
        int version = in.readInt();
        if (version != SNAPSHOT_VERSION) {
            throw new java.io.IOException("NFA state snapshot format version " + version + " is not supported (this"
                    + " version reads " + SNAPSHOT_VERSION + ")");
        }
        long print = in.readLong();
        if (print != fingerprint()) {
            throw new java.io.IOException("the snapshot was taken with a different pattern (fingerprint "
                    + Long.toHexString(print) + ", this pattern " + Long.toHexString(fingerprint()) + ")");
        }
        KeyState st = (KeyState) newState(key);
        long[] maxSeq = {seqCounter};
        int liveBefore = buffer.liveEntries();
        StateSnapshots.read(st, buffer, codec, in, program.stateCount(), maxSeq); // cleans up if it fails
        st.entries = buffer.liveEntries() - liveBefore;
        seqCounter = maxSeq[0];
        livePartialMatches += st.count;
        st.expiresAt = expiry.earliest(st);
        return st;
    }

    /** Identifies the compiled pattern a snapshot belongs to: see {@link Program#fingerprint()}. */
    private long fingerprint() {
        return program.fingerprint();
    }

    /** See {@code NfaMatcher#release}. */
    public void release(NfaState nfaState) {
        KeyState st = own(nfaState);
        if (!st.isEmpty()) {
            throw new IllegalArgumentException("only an empty state can be released; key " + st.key + " still has "
                    + st.count + " partial and " + st.heldCount + " held matches");
        }
        st.pool();
        if (pooled < POOL_LIMIT) {
            if (pooled == pool.length) {
                pool = Arrays.copyOf(pool, pooled * 2);
            }
            pool[pooled++] = st;
        }
    }

    /** Advances the key to the event's time, then matches the event. See {@code NfaMatcher#process}. */
    public void process(NfaState nfaState, T event, long timestamp, MatchSink<T> sink) {
        process(nfaState, event, timestamp, sink, true);
    }

    /**
     * As {@link #process(NfaState, Object, long, MatchSink)}; with {@code mayStart} false the event only extends the
     * key's live partial matches (and advances its time), and begins none.
     */
    public void process(NfaState nfaState, T event, long timestamp, MatchSink<T> sink, boolean mayStart) {
        KeyState st = own(nfaState);
        if (st.traced() && tracer == null) {
            processTraced(st, event, timestamp, sink, mayStart); // comes back here with the key's tracer set
            return;
        }
        startsAllowed = mayStart;
        if (event == null) {
            throw new NullPointerException("event must not be null (key " + st.key + ", timestamp " + timestamp + ")");
        }
        Objects.requireNonNull(sink, "sink");
        if (timestamp < st.currentTime) {
            throw new IllegalArgumentException("event time " + timestamp + " is before the key's current time "
                    + st.currentTime + " (key " + st.key + "): the NFA needs each key's events in time order;"
                    + " sort them first (the runtime's reorder buffer does) and drop late ones");
        }
        liveEntriesAtStart = buffer.liveEntries();
        RuntimeException skipFailure = null;
        try {
            if (timestamp > st.currentTime) {
                st.currentTime = timestamp;
                if (timestamp >= st.expiresAt) {
                    skipFailure = expire(st, timestamp, sink);
                }
            }
            if (skipFailure == null) {
                skipFailure = step(st, event, timestamp, sink);
            } else {
                // a held match of the advance could not be skipped: it concerns earlier events, so this one is
                // still applied before the failure is reported
                try {
                    skipFailure = merge(skipFailure, step(st, event, timestamp, sink));
                } catch (RuntimeException ex) {
                    ex.addSuppressed(skipFailure);
                    throw ex;
                }
            }
            if (!failOnOverflow && entriesNow(st) > maxEntries) {
                skipFailure = merge(skipFailure, trimToEntryBound(st, sink));
            }
        } finally {
            st.entries = entriesNow(st);
        }
        if (skipFailure != null) {
            throw skipFailure;
        }
    }

    /** {@link #process} for a traced key: with its tracer set for the step's hooks, and settled after it. */
    private void processTraced(KeyState st, T event, long timestamp, MatchSink<T> sink, boolean mayStart) {
        tracer = traceStart(st, null);
        try {
            process(st, event, timestamp, sink, mayStart);
        } finally {
            traceEnd(st);
        }
    }

    /**
     * Traces a key from now on, or stops tracing it. See {@code NfaMatcher#trace}.
     *
     * @param key     the key, as its states were created with
     * @param current the key's state now, if it has one (null if not): it is traced from now on too
     * @param sink    where its trace goes; null to stop tracing it
     */
    public void trace(Object key, NfaState current, io.cepheus.nfa.trace.TraceSink sink) {
        if (current != null) {
            own(current).traced(sink != null);
        }
        if (sink == null) {
            if (tracers != null) {
                tracers.remove(key);
                if (tracers.isEmpty()) {
                    tracers = null;
                }
            }
            return;
        }
        if (tracers == null) {
            tracers = new java.util.HashMap<>();
        }
        tracers.put(key, new KeyTracer(sink, program));
    }

    /**
     * @return the key's tracer, having reported {@code first} to it (if not null), or null if it is not traced; the
     *     caller clears it with {@link #traceEnd} (the hooks test {@link #tracer}, null outside a traced key's work)
     */
    private KeyTracer traceStart(KeyState st, TraceEntry first) {
        KeyTracer tr = tracers == null ? null : tracers.get(st.key);
        if (tr == null) {
            st.traced(false); // its trace was stopped without the state at hand
            return null;
        }
        {
            tr.settle(st, st.currentTime, null, null); // numbers what began before the trace did
            if (first != null) {
                tr.report(first);
            }
        }
        return tr;
    }

    /** Ends a key operation's trace: what left the key without a step saying why was rejected at the bound. */
    private void traceEnd(KeyState st) {
        if (tracer != null) {
            tracer.settle(st, st.currentTime, EndReason.REJECTED, REJECTED_DETAIL);
            tracer = null;
        }
    }

    private static final String REJECTED_DETAIL = "the key was at its bound of partial matches or buffer entries"
            + " (NfaOptions, OverflowPolicy.REJECT_NEW)";

    /** The buffer's live entries when the key operation under way began (see {@link #entriesNow}). */
    private int liveEntriesAtStart;

    /**
     * The buffer entries the key keeps alive now, during one of its operations: entries belong to one key only and
     * are created and freed only while that key is worked on, so the buffer's count moves by exactly the key's.
     */
    private int entriesNow(KeyState st) {
        return st.entries + buffer.liveEntries() - liveEntriesAtStart;
    }

    /** See {@code NfaMatcher#ignoredByNewState}. */
    public boolean ignoredByNewState(T e) {
        Objects.requireNonNull(e, "event");
        boolean ignored = decisions.ignoredByNewState(e);
        if (ignored && counting) {
            testedIn[program.startState]++; // tested at the first stage, as a step would have
        }
        return ignored;
    }

    /** See {@code NfaMatcher#advanceTime}. */
    public void advanceTime(NfaState nfaState, long time, MatchSink<T> sink) {
        KeyState st = own(nfaState);
        Objects.requireNonNull(sink, "sink");
        // equal times too: an event at this time may have moved a partial match into a gap that had already
        // closed (previous + gap <= time), and Flink's operator advances to the watermark after that time's events
        if (time >= st.currentTime) {
            st.currentTime = time;
            if (time >= st.expiresAt) {
                liveEntriesAtStart = buffer.liveEntries();
                RuntimeException skipFailure;
                if (st.traced()) {
                    tracer = traceStart(st, null);
                }
                try {
                    skipFailure = expire(st, time, sink);
                } finally {
                    st.entries = entriesNow(st);
                    if (tracer != null) {
                        traceEnd(st);
                    }
                }
                if (skipFailure != null) {
                    throw skipFailure;
                }
            }
        }
    }

    /**
     * Drops every partial and held match of a key, giving their shared-buffer entries back, so that the state is
     * empty and may be released.
     *
     * @return how many partial and held matches were dropped
     */
    public int discard(NfaState nfaState) {
        KeyState st = own(nfaState);
        int dropped = st.count + st.heldCount;
        KeyTracer tr = st.traced() ? traceStart(st, null) : null;
        if (tr != null) {
            tr.endAll(st.currentTime, EndReason.DISCARDED, "dropped at once with the key's other partial matches,"
                    + " without timing out (its pattern version was retired with them discarded)");
        }
        for (int i = 0; i < st.count; i++) {
            int entry = KeyState.entryOf(st.stateEntry(i));
            if (entry != NONE) {
                buffer.release(entry);
            }
        }
        for (int i = 0; i < st.heldCount; i++) {
            buffer.release(st.heldEntry[i]);
        }
        livePartialMatches -= st.count;
        st.replaceAll(queueCapacity(0), 0);
        st.heldCount = 0;
        st.entries = 0;
        st.expiresAt = Long.MAX_VALUE;
        return dropped;
    }

    /** See {@code NfaMatcher#partialMatches}. */
    public List<io.cepheus.nfa.PartialMatch<T>> partialMatches(NfaState nfaState) {
        KeyState st = own(nfaState);
        List<io.cepheus.nfa.PartialMatch<T>> out = new java.util.ArrayList<>(st.count);
        for (int i = 0; i < st.count; i++) {
            long stateEntry = st.stateEntry(i);
            int entry = KeyState.entryOf(stateEntry);
            Match<T> events = entry == NONE ? matchFactory.create(program.stageNames, new Object[0], new int[0],
                    new long[0]) : materialize(entry);
            out.add(new io.cepheus.nfa.PartialMatch<>(program.stateLabel[KeyState.stateOf(stateEntry)], events,
                    st.startTime(i), expiry.of(stateEntry, st.startTime(i), st.prevTime(i))));
        }
        return out;
    }

    private KeyState own(NfaState nfaState) {
        if (!(nfaState instanceof KeyState st) || st.owner != this) {
            throw new IllegalArgumentException("this NfaState was not created by this matcher: " + nfaState);
        }
        if (st.pooled()) {
            throw new IllegalStateException("this NfaState (key " + st.key + ") was released; create a new one");
        }
        return st;
    }

    // ------------------------------------------------------------------ time

    /**
     * Times out the partial matches of a key whose time just moved to {@code time}. The callers check
     * {@code time >= st.expiresAt} first: before that time no partial match expires, so nothing can time out
     * or be released, and the common step stays one comparison without a call.
     *
     * @return the failure of a held match the skip strategy could not handle (see {@link #releaseHeld}), to be
     *     thrown once the timeouts are out too; null if none
     */
    private RuntimeException expire(KeyState st, long time, MatchSink<T> sink) {
        matchCount = 0;
        timeouts.clear();
        // Flink rebuilds its queue from the survivors, added in queue order
        int live = st.count;
        long[] q = queueCapacity(live);
        int kept = 0;
        for (int i = 0; i < live; i++) {
            int at = kept * KeyState.STRIDE;
            long stateEntry = st.stateEntry(i);
            int s = KeyState.stateOf(stateEntry);
            long startTime = st.startTime(i);
            long prevTime = st.prevTime(i);
            boolean byGap = expiry.gapClosed(s, prevTime, time);
            if ((byGap || expiry.windowClosed(startTime, time)) && s != program.startState) {
                if (tracer != null) {
                    traceExpired(stateEntry, st.startSeq(i), byGap, startTime, prevTime, time);
                }
                if (program.stateKind[s] == Program.PENDING) {
                    addMatch(KeyState.entryOf(stateEntry), st.startSeq(i));
                } else {
                    if (counting) {
                        timedOutIn[s]++;
                    }
                    timeouts.add(KeyState.entryOf(stateEntry),
                            byGap ? expiry.gapTimeout(s, prevTime) : expiry.windowTimeout(startTime));
                }
                continue;
            }
            q[at + KeyState.STATE_ENTRY] = stateEntry;
            q[at + KeyState.START_TIME] = startTime;
            q[at + KeyState.PREV_TIME] = prevTime;
            q[at + KeyState.START_SEQ] = st.startSeq(i);
            StartQueue.siftUp(q, kept++);
        }
        if (kept != live) {
            // (with nothing gone the additions rebuild the same queue)
            livePartialMatches -= live - kept;
            st.replaceAll(q, kept);
        }
        st.expiresAt = expiry.earliest(st);
        RuntimeException skipFailure = releaseHeld(st, sink);
        boolean wantsTimeouts = sink.wantsTimeouts();
        timeouts.markRepeats();
        for (int i = 0; i < timeouts.size(); i++) {
            if (!timeouts.repeats(i)) {
                timeoutsEmitted++;
                if (wantsTimeouts) {
                    sink.onTimeout(materialize(timeouts.entry(i)), timeouts.time(i));
                }
            }
        }
        for (int i = 0; i < timeouts.size(); i++) {
            buffer.release(timeouts.entry(i));
        }
        timeouts.clear();
        return skipFailure;
    }

    // ------------------------------------------------------------------ one event

    /**
     * Matches one event (the key's time is already advanced to it).
     *
     * @return the failure of a held match the skip strategy could not handle (see {@link #releaseHeld}), for the
     *     caller to throw; null if none
     */
    /** Whether the current step may begin new partial matches (false: a drained pattern version's step). */
    private boolean startsAllowed = true;

    private RuntimeException step(KeyState st, T e, long time, MatchSink<T> sink) {
        event = e;
        eventTime = time;
        eventSeq = ++seqCounter;
        eventSlot = NONE;
        decisions.startEvent(e, time);
        newCount = 0;
        matchCount = 0;
        createdCount = 0;
        inheritingNew = 0;
        inheritedOld = 0;
        keptUnchanged = 0;
        if (tracer != null) {
            tracer.report(new TraceEntry.Event(time, e)); // after what advancing to its time timed out
            tracer.beginStep();
        }
        try {
            if (oldInherited.length < st.count) {
                oldInherited = new boolean[Math.max(st.count, oldInherited.length * 2)];
            }
            // in queue order, then the start state: the order Flink visits its queue of partial matches in (its
            // start state sorts after every partial match and is always added last, so it stays last), which is
            // the order new partial matches and matches are added to its queues
            // two loops rather than a test per branch: the untraced, uncounted one is the matching path of every
            // key, and a hook inside it cost W1 6-7% (benchmarks/results/2026-12-02-explain-and-counters.md)
            if (!counting && tracer == null) {
                for (int i = 0; i < st.count; i++) {
                    long stateEntry = st.stateEntry(i);
                    branchOrigin = i;
                    branch(KeyState.stateOf(stateEntry), KeyState.entryOf(stateEntry), st.startTime(i),
                            st.prevTime(i), st.startSeq(i));
                }
                branchOrigin = -1;
                if (startsAllowed) {
                    branch(program.startState, NONE, time, time, eventSeq);
                }
            } else {
                // counted or traced: the same branches, each watched from outside (branch itself stays as it is)
                for (int i = 0; i < st.count; i++) {
                    long stateEntry = st.stateEntry(i);
                    branchOrigin = i;
                    watchedBranch(KeyState.stateOf(stateEntry), KeyState.entryOf(stateEntry), st.startTime(i),
                            st.prevTime(i), st.startSeq(i));
                }
                branchOrigin = -1;
                startedInStep = 0;
                if (startsAllowed) {
                    int before = newCount;
                    int matchesBefore = matchCount;
                    watchedBranch(program.startState, NONE, time, time, eventSeq);
                    startedInStep = newCount - before;
                    if (matchCount > matchesBefore) {
                        startedInStep += matchesNotShared(before, matchesBefore);
                    }
                }
            }
        } catch (RuntimeException ex) {
            rollback();
            throw conditionFailure(st, ex);
        } catch (Error error) {
            // not ours to wrap (an AssertionError, an OutOfMemoryError), but the key's state must stay as it was
            rollback();
            throw error;
        }
        if (failOnOverflow && entriesNow(st) > maxEntries) {
            // counted before the commit lets go of what the event replaces: a bound on what the key holds at
            // every point of the step, decided without changing the state
            int wouldKeep = entriesNow(st);
            rollback();
            throw new PartialMatchLimitException("key " + st.key + " would keep " + wouldKeep
                    + " shared-buffer entries at event time " + time + ", more than the bound of " + maxEntries
                    + " (NfaOptions.maxBufferEntriesPerKey); the event was not applied");
        }
        // held matches count toward the bound: they keep their events buffered as partial matches do
        if (newCount + st.heldCount > maxPartialMatches) {
            if (failOnOverflow) {
                // the counts before the rollback, which resets them
                int wouldHold = newCount;
                int held = st.heldCount;
                rollback();
                throw new PartialMatchLimitException("key " + st.key + " would hold " + wouldHold
                        + " partial matches and " + held + " held matches at event time " + time
                        + ", more than the bound of " + maxPartialMatches + " (NfaOptions.maxPartialMatchesPerKey);"
                        + " the event was not applied");
            }
            int dropped = rejectNew(maxPartialMatches - st.heldCount);
            inheritingNew = -1; // some of the dropped ones may have inherited: let commit look at each
            commit(st);
            for (int i = 0; i < dropped; i++) {
                // the dropped successor held its origin's reference: let it go now that the kept ones hold theirs
                buffer.release(droppedRefs[i]);
            }
        } else if (keptUnchanged == st.count && newCount == st.count && matchCount == 0 && createdCount == 0) {
            // every partial match ignored the event as it was and the start state began none: the key's state
            // stays exactly as it is, so it is not rewritten (nor its expiry recomputed), and its cache lines
            // stay clean (half the events of benchmark workloads W1 and W2, a third of W3 and W4)
        } else {
            commit(st);
        }
        if (tracer != null) {
            tracer.commitStep(st, time);
        }
        if (counting) {
            started += startedInStep;
        }
        int completed = matchCount;
        event = null;
        decisions.endEvent();
        if (skipping) {
            if (matchCount > 0 || st.heldCount > 0) {
                RuntimeException failure = releaseHeld(st, sink);
                if (st.count + st.heldCount > maxPartialMatches && !failOnOverflow) {
                    rejectNewlyHeld(st, completed);
                }
                return failure;
            }
        } else if (matchCount > 0) {
            // Flink passes them through its (here empty) queue of completed matches: out by start event, equal
            // starts in the queue's order
            StartQueue.insertAll(matchEntry, matchStartSeq, matchCount);
            for (int n = matchCount; n > 0; n--) {
                int entry = matchEntry[0];
                StartQueue.poll(matchEntry, matchStartSeq, n);
                matchesEmitted++;
                sink.onMatch(materialize(entry));
                buffer.release(entry);
            }
            matchCount = 0;
        }
        return null;
    }

    /**
     * Trims this step's successors to {@code room} under {@link io.cepheus.nfa.OverflowPolicy#REJECT_NEW}: keeps
     * the continuation of every old partial match (its first successor), then as many of the others (branches
     * and the partial match the event starts) as fit, in order, which is start order; the order of the kept
     * ones is unchanged. Continuations alone exceed the room only if the bound was already passed before the
     * event (a snapshot restored under a smaller bound); then the earliest ones are kept.
     *
     * @param room how many partial matches may remain (the bound less the held matches), may be negative
     * @return how many of the dropped successors inherited their origin's buffer reference; their entries are
     *     in {@link #droppedRefs}, to be released after the commit
     */
    private int rejectNew(int room) {
        int continuing = 0;
        for (int k = 0; k < newCount; k++) {
            if (nextContinues[k]) {
                continuing++;
            }
        }
        int continuingRoom = room;
        int newRoom = room - continuing;
        int kept = 0;
        int dropped = 0;
        for (int k = 0; k < newCount; k++) {
            boolean keep = nextContinues[k] ? continuingRoom-- > 0 : newRoom-- > 0;
            if (keep) {
                if (kept != k) {
                    System.arraycopy(next, k * KeyState.STRIDE, next, kept * KeyState.STRIDE, KeyState.STRIDE);
                    nextInherits[kept] = nextInherits[k];
                }
                kept++;
            } else {
                rejected++;
                if (nextInherits[k]) {
                    if (dropped == droppedRefs.length) {
                        droppedRefs = Arrays.copyOf(droppedRefs, dropped * 2);
                    }
                    droppedRefs[dropped++] = KeyState.entryOf(next[k * KeyState.STRIDE + KeyState.STATE_ENTRY]);
                }
            }
        }
        newCount = kept;
        return dropped;
    }

    /**
     * After the release of held matches under {@link io.cepheus.nfa.OverflowPolicy#REJECT_NEW}: the key holds
     * more partial and held matches than the bound only because of matches this event completed that the skip
     * strategy holds back. Those are new: drop them, latest start first, until the key is within the bound.
     *
     * @param completed how many matches this step completed; their entries are still in {@link #matchEntry}
     */
    private void rejectNewlyHeld(KeyState st, int completed) {
        int excess = st.count + st.heldCount - maxPartialMatches;
        boolean[] drop = new boolean[st.heldCount]; // the overflow path only: rare enough to allocate
        int dropping = 0;
        for (int i = st.heldCount - 1; i >= 0 && dropping < excess; i--) {
            int entry = st.heldEntry[i];
            boolean completedNow = false;
            for (int j = 0; j < completed && !completedNow; j++) {
                completedNow = matchEntry[j] == entry;
            }
            if (completedNow) {
                drop[i] = true;
                dropping++;
                buffer.release(entry);
                rejected++;
            }
        }
        if (dropping == 0) {
            return;
        }
        // as the queue's removeAll: survivors close up in array order, then the queue is rebuilt
        int kept = 0;
        for (int i = 0; i < st.heldCount; i++) {
            if (!drop[i]) {
                st.heldEntry[kept] = st.heldEntry[i];
                st.heldStartSeq[kept] = st.heldStartSeq[i];
                kept++;
            }
        }
        st.heldCount = kept;
        StartQueue.heapify(st.heldEntry, st.heldStartSeq, kept);
    }

    /**
     * Under {@link io.cepheus.nfa.OverflowPolicy#REJECT_NEW}, once an event is matched: while the key keeps more
     * buffer entries alive than the bound, drops its latest-starting partial match (among equal starts the one later
     * in the queue), then, if that was not enough, its latest-starting held match. Each dropped one is counted as
     * rejected. Dropping the runs that started last keeps the oldest, those closest to completing, as the
     * partial-match bound does.
     *
     * @return the failure of a held match the skip strategy could not handle, if dropping partial matches let held
     *     ones out; null if none
     */
    private RuntimeException trimToEntryBound(KeyState st, MatchSink<T> sink) {
        int records = st.count;
        int droppedPartials = 0;
        if (records > 0) {
            long[] q = queueCapacity(records);
            st.copyTo(q);
            long[] order = latestStartFirst(q, records); // the overflow path only: rare enough to allocate
            boolean[] drop = new boolean[records];
            for (int o = 0; o < records && entriesNow(st) > maxEntries; o++) {
                int r = (int) order[o];
                drop[r] = true;
                int entry = KeyState.entryOf(q[r * KeyState.STRIDE + KeyState.STATE_ENTRY]);
                if (entry != NONE) {
                    buffer.release(entry);
                }
                droppedPartials++;
            }
            if (droppedPartials > 0) {
                // as the queue's removeAll: survivors close up in array order, then the queue is rebuilt
                int kept = 0;
                for (int r = 0; r < records; r++) {
                    if (!drop[r]) {
                        if (kept != r) {
                            System.arraycopy(q, r * KeyState.STRIDE, q, kept * KeyState.STRIDE, KeyState.STRIDE);
                        }
                        kept++;
                    }
                }
                StartQueue.heapify(q, kept);
                st.replaceAll(q, kept);
                st.expiresAt = expiry.earliest(st);
                livePartialMatches -= droppedPartials;
                rejected += droppedPartials;
            }
        }
        int droppedHeld = 0;
        while (st.heldCount > 0 && entriesNow(st) > maxEntries) {
            int latest = 0;
            for (int i = 1; i < st.heldCount; i++) {
                if (st.heldStartSeq[i] >= st.heldStartSeq[latest]) {
                    latest = i;
                }
            }
            buffer.release(st.heldEntry[latest]);
            int last = st.heldCount - 1;
            System.arraycopy(st.heldEntry, latest + 1, st.heldEntry, latest, last - latest);
            System.arraycopy(st.heldStartSeq, latest + 1, st.heldStartSeq, latest, last - latest);
            st.heldCount = last;
            droppedHeld++;
        }
        if (droppedHeld > 0) {
            StartQueue.heapify(st.heldEntry, st.heldStartSeq, st.heldCount);
            rejected += droppedHeld;
        }
        // fewer partial matches may no longer hold back the earliest held matches
        return skipping && droppedPartials > 0 && st.heldCount > 0 ? releaseHeld(st, sink) : null;
    }

    /**
     * The record indexes of the first {@code n} partial matches in {@code q}, latest start first, and among equal
     * starts the later index first: each start is replaced by its rank among the starts so that rank and index fit
     * one long, sorted without boxing.
     */
    private static long[] latestStartFirst(long[] q, int n) {
        long[] starts = new long[n];
        for (int r = 0; r < n; r++) {
            starts[r] = q[r * KeyState.STRIDE + KeyState.START_SEQ];
        }
        long[] distinct = starts.clone();
        Arrays.sort(distinct);
        int distinctCount = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || distinct[i] != distinct[i - 1]) {
                distinct[distinctCount++] = distinct[i];
            }
        }
        long[] order = new long[n];
        for (int r = 0; r < n; r++) {
            long rank = Arrays.binarySearch(distinct, 0, distinctCount, starts[r]);
            order[r] = -((rank << 32) | r);
        }
        Arrays.sort(order);
        for (int o = 0; o < n; o++) {
            order[o] = (-order[o]) & 0xFFFF_FFFFL;
        }
        return order;
    }

    /**
     * How many of the matches the start state completed this step took their event into an entry no new partial
     * match holds: with the partial matches it began, those are the partial matches it began (a match that shares its
     * entry with a new partial match is that one's, completed as it goes on).
     */
    private int matchesNotShared(int firstNew, int firstMatch) {
        int own = 0;
        for (int m = firstMatch; m < matchCount; m++) {
            boolean shared = false;
            for (int k = firstNew; k < newCount && !shared; k++) {
                shared = KeyState.entryOf(next[k * KeyState.STRIDE + KeyState.STATE_ENTRY]) == matchEntry[m];
            }
            if (!shared) {
                own++;
            }
        }
        return own;
    }

    /**
     * {@link #branch}, counted per stage and reported to the key's tracer, whichever is on: what the branch did is
     * read off the scratch arrays around it, so that the branch itself carries no counting or tracing.
     */
    private void watchedBranch(int state, int entry, long startTime, long prevTime, long startSeq) {
        int firstNew = newCount;
        int matchesBefore = matchCount;
        int createdBefore = createdCount;
        boolean discarded = branch(state, entry, startTime, prevTime, startSeq);
        if (counting) {
            testedIn[state]++;
            for (int k = createdBefore; k < createdCount; k++) {
                takenAt[buffer.stage(created[k])]++;
            }
            if (branchOrigin >= 0 && newCount == firstNew && matchCount == matchesBefore) {
                endedIn[state]++;
            }
        }
        if (tracer != null) {
            traceBranch(state, entry, startSeq, firstNew, matchesBefore, discarded);
        }
    }

    /**
     * Computes the successors of one partial match (or of the start state) into the scratch arrays.
     *
     * @return whether a NOT stage saw the event, ending the partial match
     */
    private boolean branch(int state, int entry, long startTime, long prevTime, long startSeq) {
        // the first successor of an old partial match continues it; what else it branches into, and what the
        // start state starts, is new (see rejectNew)
        continuationSlot = branchOrigin >= 0 ? newCount : -1;
        decisions.startPartialMatch(entry);
        boolean isStart = state == program.startState;
        branchInherit = INHERIT_NONE;
        int decision = decisions.decide(state);
        int[] picked = decisions.pool(); // read after decide: deciding may have grown it
        int edgeCount = decisions.edgeCount();
        if (edgeCount == 1 && entry != NONE && branchOrigin >= 0 && program.edgeTarget[picked[decision]] == state
                && program.edgeAction[picked[decision]] == Program.IGNORE) {
            // the common case of a waiting run: it ignores the event and lives on unchanged with its reference
            // (what the loop below does for it, without re-checking the target's kind and the copy)
            keepUnchanged(state, entry, startTime, prevTime, startSeq);
            oldInherited[branchOrigin] = true;
            inheritedOld++;
            keptUnchanged++;
            return false;
        }
        int end = decision + 2 * edgeCount;
        int firstNew = newCount;
        boolean discard = false;
        for (int k = decision; k < end; k += 2) {
            int e = picked[k];
            int target = program.edgeTarget[e];
            if (program.edgeAction[e] == Program.IGNORE) {
                if (!isStart) {
                    discard |= add(target, entry, startTime, prevTime, startSeq);
                    if (branchInherit == INHERIT_NONE && entry != NONE && newCount > firstNew
                            && KeyState.entryOf(next[(newCount - 1) * KeyState.STRIDE]) == entry
                            && program.stateKind[target] != Program.FINAL) {
                        // the run lives on unchanged: keep its reference instead of lock + release
                        nextInherits[newCount - 1] = true;
                        inheritingNew++;
                        branchInherit = INHERIT_BY_IGNORE;
                    }
                }
            } else {
                int source = picked[k + 1];
                // the first successor of a run takes over its reference, so the (cold) predecessor is not touched
                boolean adopt = branchInherit == INHERIT_NONE && entry != NONE && branchOrigin >= 0;
                int taken = buffer.put(slot(), program.stateStage[source], entry, adopt);
                if (adopt) {
                    branchInherit = INHERIT_BY_TAKE;
                }
                if (createdCount == created.length) {
                    created = Arrays.copyOf(created, createdCount * 2);
                    createdAdopts = Arrays.copyOf(createdAdopts, createdCount * 2);
                }
                createdAdopts[createdCount] = adopt;
                created[createdCount++] = taken;
                long st = isStart ? eventTime : startTime;
                long sq = isStart ? eventSeq : startSeq;
                discard |= add(target, taken, st, eventTime, sq);
                if (program.proceedsToFinal[target]) {
                    int fin = decisions.cachedFinalAfterProceed(target);
                    if (fin >= 0) {
                        discard |= add(fin, taken, st, eventTime, sq);
                    }
                }
            }
        }
        if (discard) {
            // a NOT stage saw its event: this run ends; matches it completed on the way still count
            newCount = firstNew;
            if (branchInherit == INHERIT_BY_IGNORE) {
                branchInherit = INHERIT_NONE; // the dropped successor held no reference of its own
                inheritingNew--;
            }
            // (a reference adopted by a new entry stays with it: freeing the orphan entry releases it)
        }
        if (branchOrigin >= 0) {
            boolean handedOn = branchInherit != INHERIT_NONE;
            oldInherited[branchOrigin] = handedOn;
            if (handedOn) {
                inheritedOld++;
            }
        }
        return discard;
    }

    /** @return true if the target is a STOP state (the branch must be discarded) */
    private boolean add(int target, int entry, long startTime, long prevTime, long startSeq) {
        byte kind = program.stateKind[target];
        if (kind == Program.STOP) {
            lastStopState = target;
            return true;
        }
        if (kind == Program.FINAL) {
            addMatch(entry, startSeq);
            return false;
        }
        int at = newCount * KeyState.STRIDE;
        if (at == next.length) {
            next = Arrays.copyOf(next, at * 2);
            nextInherits = Arrays.copyOf(nextInherits, newCount * 2);
            nextContinues = Arrays.copyOf(nextContinues, newCount * 2);
        }
        nextInherits[newCount] = false;
        nextContinues[newCount] = newCount == continuationSlot;
        next[at + KeyState.STATE_ENTRY] = KeyState.pack(target, entry);
        next[at + KeyState.START_TIME] = startTime;
        next[at + KeyState.PREV_TIME] = prevTime;
        next[at + KeyState.START_SEQ] = startSeq;
        newCount++;
        return false;
    }

    /** Appends a partial match that ignored the event as it was, holding the reference its origin held. */
    private void keepUnchanged(int state, int entry, long startTime, long prevTime, long startSeq) {
        int at = newCount * KeyState.STRIDE;
        if (at == next.length) {
            next = Arrays.copyOf(next, at * 2);
            nextInherits = Arrays.copyOf(nextInherits, newCount * 2);
            nextContinues = Arrays.copyOf(nextContinues, newCount * 2);
        }
        nextInherits[newCount] = true;
        nextContinues[newCount] = newCount == continuationSlot;
        inheritingNew++;
        next[at + KeyState.STATE_ENTRY] = KeyState.pack(state, entry);
        next[at + KeyState.START_TIME] = startTime;
        next[at + KeyState.PREV_TIME] = prevTime;
        next[at + KeyState.START_SEQ] = startSeq;
        newCount++;
    }

    private void addMatch(int entry, long startSeq) {
        if (matchCount == matchEntry.length) {
            matchEntry = Arrays.copyOf(matchEntry, matchCount * 2);
            matchStartSeq = Arrays.copyOf(matchStartSeq, matchCount * 2);
        }
        matchEntry[matchCount] = entry;
        matchStartSeq[matchCount++] = startSeq;
    }

    private int slot() {
        if (eventSlot == NONE) {
            eventSlot = buffer.addEvent(event, eventTime, eventSeq);
        }
        return eventSlot;
    }

    /** Makes the computed step the key's state: references first taken, then old ones dropped. */
    private void commit(KeyState st) {
        // runs that only ignored the event neither lock nor release: skip the loops when every run did
        if (inheritingNew != newCount) {
            for (int k = 0; k < newCount; k++) {
                int entry = KeyState.entryOf(next[k * KeyState.STRIDE + KeyState.STATE_ENTRY]);
                if (entry != NONE && !nextInherits[k]) {
                    buffer.lock(entry);
                }
            }
        }
        for (int i = 0; i < matchCount; i++) {
            buffer.lock(matchEntry[i]);
        }
        if (inheritedOld != st.count) {
            for (int i = 0; i < st.count; i++) {
                int entry = KeyState.entryOf(st.stateEntry(i));
                if (entry != NONE && !oldInherited[i]) {
                    buffer.release(entry);
                }
            }
        }
        for (int i = createdCount - 1; i >= 0; i--) {
            buffer.freeIfUnreferenced(created[i]);
        }
        if (eventSlot != NONE) {
            buffer.freeEventIfUnused(eventSlot);
        }
        livePartialMatches += newCount - st.count;
        // Flink adds them one by one to a new queue: in place, as nothing reads their creation order any more
        // (a run that only ignored the event keeps its place: each addition usually stays where it is appended)
        for (int k = 1; k < newCount; k++) {
            StartQueue.siftUp(next, k);
        }
        st.replaceAll(next, newCount);
        st.expiresAt = expiry.earliest(next, newCount);
    }

    private long[] queueCapacity(int records) {
        if (queue.length < records * KeyState.STRIDE) {
            queue = new long[Math.max(records, queue.length / KeyState.STRIDE * 2) * KeyState.STRIDE];
        }
        return queue;
    }

    /** Undoes the entries a failed step created; the key's state was not touched yet. */
    private void rollback() {
        if (tracer != null) {
            tracer.abortStep(); // it changed nothing, so it reports nothing
        }
        for (int i = createdCount - 1; i >= 0; i--) {
            if (createdAdopts[i]) {
                buffer.freeDetached(created[i]); // the origin keeps its reference
            } else {
                buffer.freeIfUnreferenced(created[i]);
            }
        }
        if (eventSlot != NONE) {
            buffer.freeEventIfUnused(eventSlot);
        }
        newCount = 0;
        matchCount = 0;
        createdCount = 0;
        event = null;
        decisions.endEvent();
    }

    private RuntimeException conditionFailure(KeyState st, RuntimeException ex) {
        // a NOT stage's condition is evaluated on the edge into its STOP state: name that state
        int failed = decisions.failedState();
        int stage = program.stateStage[failed];
        String name = stage >= 0 ? program.stageNames.get(stage) : program.stateLabel[failed];
        return new ConditionException(name, "the condition of stage '" + name + "' threw " + ex
                + " on the event at time " + eventTime + " (key " + st.key + "); the event was not applied", ex);
    }

    // ------------------------------------------------------------------ skip strategies

    /**
     * Moves this step's matches into the held queue, then releases held matches that start no later than every
     * live partial match (all of them without a skip strategy), pruning as the skip strategy says (Flink's
     * processMatchesAccordingToSkipStrategy). Among held matches with the same start the queue's order decides
     * which goes first, so the matches enter it as Flink adds them: in the order of its queue of new matches.
     *
     * <p>With {@code throwExceptionOnMiss}, a match whose skip target is missing, or is the match's own first
     * event (skipping there would prune nothing: Flink's "Could not skip to first element of a match"), is an
     * error. Flink fails the job there; here the offending match is dropped (not emitted, its buffer reference
     * released, nothing pruned for it) and the other held matches are released as usual, so the key stays
     * consistent and leaks nothing. The error is returned instead of thrown, so that callers finish the step
     * or advance first; several in one call are reported as one, the others suppressed.
     *
     * @return the error, or null
     */
    private RuntimeException releaseHeld(KeyState st, MatchSink<T> sink) {
        StartQueue.insertAll(matchEntry, matchStartSeq, matchCount);
        for (int i = 0; i < matchCount; i++) {
            st.hold(matchEntry[i], matchStartSeq[i]);
        }
        matchCount = 0;
        RuntimeException failure = null;
        while (st.heldCount > 0 && (!skipping || st.count == 0 || st.heldStartSeq[0] <= earliestStart(st))) {
            int entry = st.heldEntry[0];
            long startSeq = st.heldStartSeq[0];
            st.pollHeld(); // taken out first, so that the match does not prune itself
            long pruneAt = pruning.pruningSeq(entry, startSeq);
            if (pruneAt == AfterMatchPruning.TARGET_MISSING || pruneAt == AfterMatchPruning.TARGET_IS_FIRST) {
                failure = merge(failure, pruning.failure(st.key, materialize(entry), pruneAt));
                buffer.release(entry);
                continue;
            }
            if (pruneAt != AfterMatchPruning.NOTHING) {
                int prunedNow = pruning.prune(st, pruneAt);
                livePartialMatches -= prunedNow;
                pruned += prunedNow;
                if (tracer != null) {
                    tracer.settle(st, st.currentTime, EndReason.PRUNED, "the after-match skip strategy "
                            + KeyTracer.describe(program.skipStrategy) + " discarded it when a match was emitted");
                }
            }
            matchesEmitted++;
            Match<T> m = materialize(entry);
            buffer.release(entry);
            sink.onMatch(m);
        }
        return failure;
    }

    private static RuntimeException merge(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        if (next != null) {
            first.addSuppressed(next);
        }
        return first;
    }

    private static long earliestStart(KeyState st) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < st.count; i++) {
            min = Math.min(min, st.startSeq(i));
        }
        return min;
    }

    // ------------------------------------------------------------------ trace

    /**
     * Reports what one partial match (or the start state) became in this step: the successors that took the event
     * or let it pass, the matches it completed, or why it ended (see {@link KeyTracer}). Traced keys only.
     */
    private void traceBranch(int state, int entry, long startSeq, int firstNew, int matchesBefore, boolean discarded) {
        KeyTracer tr = tracer;
        boolean fromStart = branchOrigin < 0;
        if (fromStart && newCount == firstNew && matchCount == matchesBefore) {
            return; // the event began nothing
        }
        int number = fromStart ? 0 : tr.take(KeyState.pack(state, entry), startSeq);
        boolean anyTook = false;
        boolean continued = false;
        // the number of the successor that took each new entry: a match completed with that entry is its match
        java.util.Map<Integer, Integer> tookBy = new java.util.HashMap<>();
        for (int k = firstNew; k < newCount; k++) {
            long stateEntry = next[k * KeyState.STRIDE + KeyState.STATE_ENTRY];
            int taken = KeyState.entryOf(stateEntry);
            boolean took = taken != entry;
            String stage = took ? program.stageNames.get(buffer.stage(taken)) : null;
            anyTook |= took;
            int successor;
            if (fromStart) {
                successor = tr.newNumber();
                tr.reportInStep(new TraceEntry.Started(eventTime, successor, stage));
            } else if (k == firstNew) {
                successor = number; // the first successor carries the partial match on
                continued = true;
                if (took) {
                    tr.reportInStep(new TraceEntry.Took(eventTime, successor, 0, stage));
                }
            } else {
                successor = tr.newNumber();
                tr.reportInStep(new TraceEntry.Took(eventTime, successor, number, stage));
            }
            if (took) {
                tookBy.putIfAbsent(taken, successor);
            }
            tr.successor(stateEntry, next[k * KeyState.STRIDE + KeyState.START_SEQ], successor);
        }
        boolean completedHere = false;
        for (int m = matchesBefore; m < matchCount; m++) {
            int matched = matchEntry[m];
            Match<T> match = materialize(matched);
            Integer taker = tookBy.get(matched);
            if (taker != null) {
                // the successor that took the event completed the match too, and lives on
                tr.reportInStep(new TraceEntry.Completed(eventTime, taker, match, true));
            } else if (!fromStart && matched == entry) {
                // completed without taking the event (a trailing optional stage passed over)
                completedHere = true;
                tr.reportInStep(new TraceEntry.Completed(eventTime, number, match, continued));
            } else {
                String stage = program.stageNames.get(buffer.stage(matched));
                int completer;
                if (fromStart) {
                    completer = tr.newNumber();
                    tr.reportInStep(new TraceEntry.Started(eventTime, completer, stage));
                } else if (!continued && !completedHere) {
                    completer = number; // it took the event straight into the final state
                    tr.reportInStep(new TraceEntry.Took(eventTime, completer, 0, stage));
                } else {
                    completer = tr.newNumber();
                    tr.reportInStep(new TraceEntry.Took(eventTime, completer, number, stage));
                }
                completedHere |= completer == number;
                tr.reportInStep(new TraceEntry.Completed(eventTime, completer, match, false));
            }
        }
        if (fromStart) {
            return;
        }
        String waitingFor = tr.stageOf(state);
        if (continued && !anyTook && matchCount == matchesBefore) {
            tr.reportInStep(new TraceEntry.Skipped(eventTime, number, waitingFor, tr.fieldsRead(state, event)));
        } else if (!continued && !completedHere && discarded) {
            String not = tr.stageOf(lastStopState);
            tr.reportInStep(new TraceEntry.Ended(eventTime, number, EndReason.NOT_STAGE_MATCHED, not,
                    "stage '" + not + "' must not match, and the event matched it", tr.fieldsRead(state, event)));
        } else if (!continued && !completedHere) {
            String detail = tr.mayIgnore(state)
                    ? "the event fulfilled no condition of stage '" + waitingFor + "', and the partial match could"
                            + " not skip it"
                    : "strict contiguity broken: stage '" + waitingFor + "' had to take the very next event, and"
                            + " its condition was false";
            tr.reportInStep(new TraceEntry.Ended(eventTime, number, EndReason.CONDITION_FALSE, waitingFor, detail,
                    tr.fieldsRead(state, event)));
        }
    }

    /** Reports a partial match that times out as the key's time reaches {@code time}. Traced keys only. */
    private void traceExpired(long stateEntry, long startSeq, boolean byGap, long startTime, long prevTime,
            long time) {
        int number = tracer.take(stateEntry, startSeq);
        int s = KeyState.stateOf(stateEntry);
        if (program.stateKind[s] == Program.PENDING) {
            // a trailing notFollowedBy that nothing broke: the match completes as its window closes
            tracer.report(new TraceEntry.Completed(time, number, materialize(KeyState.entryOf(stateEntry)), false));
            return;
        }
        String stage = tracer.stageOf(s);
        long at = byGap ? expiry.gapTimeout(s, prevTime) : expiry.windowTimeout(startTime);
        String detail = byGap
                ? "stage '" + stage + "' waited longer than its gap of " + KeyTracer.duration(program.stateGap[s])
                        + " after the partial match's previous event"
                : "the pattern's window of " + KeyTracer.duration(program.window) + " closed";
        tracer.report(new TraceEntry.Ended(at, number, EndReason.TIMED_OUT, stage, detail, java.util.Map.of()));
    }

    // ------------------------------------------------------------------ matches and conditions

    private Match<T> materialize(int entry) {
        int n = 0;
        for (int e = entry; e != NONE; e = buffer.prev(e)) {
            n++;
        }
        Object[] events = new Object[n];
        int[] stageOf = new int[n];
        long[] times = new long[n];
        int i = n;
        for (int e = entry; e != NONE; e = buffer.prev(e)) {
            i--;
            events[i] = buffer.event(e);
            stageOf[i] = buffer.stage(e);
            times[i] = buffer.time(e);
        }
        return matchFactory.create(program.stageNames, events, stageOf, times);
    }

    // ------------------------------------------------------------------ metrics

    /** @return events held in the shared buffer */
    public int bufferedEvents() {
        return buffer.liveEvents();
    }

    /** @return live shared-buffer entries */
    public int bufferedEntries() {
        return buffer.liveEntries();
    }

    /** @return live partial matches over all keys of this engine */
    public long livePartialMatches() {
        return livePartialMatches;
    }

    /** @return partial matches (and newly held matches) dropped at the bound */
    public long rejectedPartialMatches() {
        return rejected;
    }

    /** @return partial matches begun (a match of one event counts as one begun and completed); 0 unless counting */
    public long partialMatchesStarted() {
        return started;
    }

    /** @return partial matches an after-match skip strategy discarded */
    public long partialMatchesPruned() {
        return pruned;
    }

    /**
     * @return per stage, in pattern order: the partial matches waiting at it (for the first stage, the events too) that
     *     an event was tested against, the events it took, the partial matches an event ended there, and those that
     *     timed out there
     */
    public List<io.cepheus.nfa.StageCounters> stageCounters() {
        if (!counting) {
            return List.of();
        }
        int stages = program.stageNames.size();
        long[] tested = new long[stages];
        long[] taken = new long[stages];
        long[] timedOut = new long[stages];
        long[] ended = new long[stages];
        for (int s = 0; s < testedIn.length; s++) {
            int stage = program.stateStage[s];
            if (stage >= 0) {
                tested[stage] += testedIn[s];
                timedOut[stage] += timedOutIn[s];
                ended[stage] += endedIn[s];
            }
        }
        System.arraycopy(takenAt, 0, taken, 0, stages);
        List<io.cepheus.nfa.StageCounters> out = new java.util.ArrayList<>(stages);
        for (int i = 0; i < stages; i++) {
            out.add(new io.cepheus.nfa.StageCounters(program.stageNames.get(i), tested[i], taken[i], ended[i],
                    timedOut[i]));
        }
        return out;
    }

    /** @return matches emitted */
    public long matchesEmitted() {
        return matchesEmitted;
    }

    /** @return timeouts emitted */
    public long timeoutsEmitted() {
        return timeoutsEmitted;
    }
}

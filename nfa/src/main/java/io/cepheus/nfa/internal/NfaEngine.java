package io.cepheus.nfa.internal;

import io.cepheus.nfa.ConditionException;
import io.cepheus.nfa.Match;
import io.cepheus.nfa.MatchSink;
import io.cepheus.nfa.NfaState;
import io.cepheus.nfa.PartialMatchLimitException;
import io.cepheus.nfa.SkipStrategyException;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Condition;
import io.cepheus.pattern.SimpleCondition;
import java.util.ArrayList;
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
    private final boolean failOnOverflow;
    private final LongSupplier processingTime;
    private final MatchFactory matchFactory;
    private final SharedBuffer buffer = new SharedBuffer();
    private final Context context = new Context();
    private final Atoms atomSource = new Atoms();
    /** Without windows nothing times out, so advancing time has nothing to do. */
    private final boolean timeCanExpire;
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
    /** Edges the last {@link #decide} picked: (edge, source state) pairs in {@link #decisionPool}. */
    private int edgeCount;
    // per-event decision cache: the edges picked from a state whose conditions are all simple; a state whose
    // decision depends on the partial match decides into the free space after the cached decisions
    private final long[] decisionStamp;
    private final int[] decisionStart;
    private final int[] decisionLength;
    private int[] decisionPool = new int[64];
    private int decisionPoolSize;
    private final long[] finalStamp;
    private final int[] finalState;
    private int[] stack = new int[16];
    private int timeoutCount;
    private int[] timeoutEntry = new int[8];
    private long[] timeoutTime = new long[8];
    private int[] timeoutBucketHead = new int[8];
    private int[] timeoutBucketNext = new int[8];
    /** Whether timeout k repeats an earlier one of the same advance (reported once, at the earliest time). */
    private boolean[] timeoutRepeats = new boolean[8];
    /** Scratch for rebuilding a key's queue of partial matches ({@link StartQueue}), STRIDE longs each. */
    private long[] queue = new long[16 * KeyState.STRIDE];

    // the event being matched
    private T event;
    private long eventTime;
    private long eventSeq;
    private int eventSlot = NONE;
    private long seqCounter;

    // condition cache: a simple atom is valid for the event, an iterative one for one partial match
    private final long[] atomStamp;
    private final boolean[] atomValue;
    /** The atoms that are {@link SimpleCondition}s, called through {@code filter} directly (one interface
     *  dispatch per evaluation instead of two: {@code test} would only forward to it); null for the others. */
    private final SimpleCondition<T>[] simpleAtoms;
    /** {@link Program#edgeCondShape}, with an atom or negated atom that is simple told apart (its cache check
     *  needs no partial match): {@link #SIMPLE_ATOM}, {@link #NOT_SIMPLE_ATOM}. */
    private final byte[] edgeShape;
    private static final byte SIMPLE_ATOM = 4;
    private static final byte NOT_SIMPLE_ATOM = 5;
    private long stampCounter;
    private long eventStamp;
    /**
     * The event {@link #ignoredByNewState} last answered false for, and the stamp its conditions were cached
     * under: the step that follows on that event reuses the stamp, so each simple condition still runs once.
     */
    private Object probedEvent;
    private long probedStamp;
    private long partialStamp;
    private int contextEntry = NONE;
    /** The state and edge whose condition is being evaluated (edge -1: none), named if the condition throws. */
    private int evaluatingState;
    private int evaluatingEdge = -1;

    private long rejected;
    private long livePartialMatches;
    private long matchesEmitted;
    private long timeoutsEmitted;

    /**
     * @param program           the compiled pattern
     * @param maxPartialMatches bound per key
     * @param failOnOverflow    throw instead of dropping new partial matches beyond the bound (see
     *                          {@link io.cepheus.nfa.OverflowPolicy} for what the bound counts)
     * @param processingTime    the processing-time clock conditions may read
     * @param matchFactory      builds matches
     */
    public NfaEngine(Program<T> program, int maxPartialMatches, boolean failOnOverflow, LongSupplier processingTime,
            MatchFactory matchFactory) {
        this.program = program;
        this.maxPartialMatches = maxPartialMatches;
        this.failOnOverflow = failOnOverflow;
        this.processingTime = processingTime;
        this.matchFactory = matchFactory;
        this.timeCanExpire = program.window > 0 || program.anyGap;
        this.skipping = program.skipStrategy.isSkipping();
        int states = program.stateCount();
        this.decisionStamp = new long[states];
        this.decisionStart = new int[states];
        this.decisionLength = new int[states];
        this.finalStamp = new long[states];
        this.finalState = new int[states];
        Arrays.fill(decisionStamp, -1);
        Arrays.fill(finalStamp, -1);
        this.atomStamp = new long[program.atoms.length];
        this.atomValue = new boolean[program.atoms.length];
        Arrays.fill(atomStamp, -1);
        @SuppressWarnings("unchecked")
        SimpleCondition<T>[] simple = new SimpleCondition[program.atoms.length];
        for (int i = 0; i < simple.length; i++) {
            if (program.atoms[i] instanceof SimpleCondition<T> sc) {
                simple[i] = sc;
            }
        }
        this.simpleAtoms = simple;
        this.edgeShape = program.edgeCondShape.clone();
        for (int e = 0; e < edgeShape.length; e++) {
            boolean atom = edgeShape[e] == Program.COND_ATOM || edgeShape[e] == Program.COND_NOT_ATOM;
            if (atom && !program.atomIterative[program.edgeCondAtom[e]]) {
                edgeShape[e] = edgeShape[e] == Program.COND_ATOM ? SIMPLE_ATOM : NOT_SIMPLE_ATOM;
            }
        }
    }

    private static final int POOL_LIMIT = 4096;
    private KeyState[] pool = new KeyState[16];
    private int pooled;

    /** @param key for messages @return an empty key state owned by this engine (a recycled one if any) */
    public NfaState newState(Object key) {
        if (pooled > 0) {
            KeyState st = pool[--pooled];
            pool[pooled] = null;
            st.reuseFor(key);
            return st;
        }
        return new KeyState(this, key);
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
        StateSnapshots.read(st, buffer, codec, in, program.stateCount(), maxSeq); // cleans up if it fails
        seqCounter = maxSeq[0];
        livePartialMatches += st.count;
        st.expiresAt = earliestExpiry(st);
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
        st.pooled = true;
        if (pooled < POOL_LIMIT) {
            if (pooled == pool.length) {
                pool = Arrays.copyOf(pool, pooled * 2);
            }
            pool[pooled++] = st;
        }
    }

    /** See {@code NfaMatcher#touchState}: no ownership check, nothing written. */
    public int touchState(NfaState nfaState) {
        return nfaState instanceof KeyState st ? st.touchFields() : 0;
    }

    /** See {@code NfaMatcher#touchPartialMatches}: no ownership check, nothing written. */
    public int touchPartialMatches(NfaState nfaState) {
        return nfaState instanceof KeyState st ? st.touchMore() : 0;
    }

    /** Advances the key to the event's time, then matches the event. See {@code NfaMatcher#process}. */
    public void process(NfaState nfaState, T event, long timestamp, MatchSink<T> sink) {
        KeyState st = own(nfaState);
        if (event == null) {
            throw new NullPointerException("event must not be null (key " + st.key + ", timestamp " + timestamp + ")");
        }
        Objects.requireNonNull(sink, "sink");
        if (timestamp < st.currentTime) {
            throw new IllegalArgumentException("event time " + timestamp + " is before the key's current time "
                    + st.currentTime + " (key " + st.key + "): the NFA needs each key's events in time order;"
                    + " sort them first (the runtime's reorder buffer does) and drop late ones");
        }
        RuntimeException skipFailure = null;
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
        if (skipFailure != null) {
            throw skipFailure;
        }
    }

    /** See {@code NfaMatcher#ignoredByNewState}. */
    public boolean ignoredByNewState(T e) {
        Objects.requireNonNull(e, "event");
        probedEvent = null;
        int start = program.startState;
        if (!program.decisionDependsOnEventOnly[start]) {
            return false; // an iterative condition on the way: leave it to the step, with its context
        }
        event = e;
        eventStamp = ++stampCounter;
        int n;
        try {
            n = collectEdges(start, 0);
        } catch (RuntimeException ex) {
            return false; // the step evaluates it again and reports it, naming the stage
        } finally {
            event = null;
        }
        for (int i = 0; i < n; i++) {
            if (program.edgeAction[decisionPool[2 * i]] == Program.TAKE) {
                probedEvent = e;
                probedStamp = eventStamp;
                return false;
            }
        }
        return true; // from the start state only a TAKE creates anything (see branch)
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
                RuntimeException skipFailure = expire(st, time, sink);
                if (skipFailure != null) {
                    throw skipFailure;
                }
            }
        }
    }

    private KeyState own(NfaState nfaState) {
        if (!(nfaState instanceof KeyState st) || st.owner != this) {
            throw new IllegalArgumentException("this NfaState was not created by this matcher: " + nfaState);
        }
        if (st.pooled) {
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
        long window = program.window;
        matchCount = 0;
        timeoutCount = 0;
        // Flink rebuilds its queue from the survivors, added in queue order
        int live = st.count;
        long[] q = queueCapacity(live);
        int kept = 0;
        for (int i = 0; i < live; i++) {
            int at = kept * KeyState.STRIDE;
            long stateEntry = st.stateEntry(i);
            int s = KeyState.stateOf(stateEntry);
            long gap = program.stateGap[s];
            long startTime = st.startTime(i);
            long prevTime = st.prevTime(i);
            // time >= start + window, written so that negative event times and MAX_VALUE cannot overflow
            boolean byGap = gap > 0 && time >= saturatedAdd(prevTime, gap);
            boolean byWindow = window > 0 && time >= saturatedAdd(startTime, window);
            if ((byGap || byWindow) && s != program.startState) {
                if (program.stateKind[s] == Program.PENDING) {
                    addMatch(KeyState.entryOf(stateEntry), st.startSeq(i));
                } else {
                    addTimeout(KeyState.entryOf(stateEntry), byGap ? prevTime + gap : startTime + window);
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
        st.expiresAt = earliestExpiry(st);
        RuntimeException skipFailure = releaseHeld(st, sink);
        boolean wantsTimeouts = sink.wantsTimeouts();
        if (timeoutCount > 0) {
            prepareTimeoutBuckets();
        }
        for (int i = 0; i < timeoutCount; i++) {
            int earlier = earlierSameTimeout(i);
            timeoutRepeats[i] = earlier >= 0;
            if (earlier >= 0) {
                // reported once, at the earliest time any internal state holding it timed out (Flink reports
                // each of them): not whichever state happens to come first
                timeoutTime[earlier] = Math.min(timeoutTime[earlier], timeoutTime[i]);
            }
        }
        for (int i = 0; i < timeoutCount; i++) {
            if (!timeoutRepeats[i]) {
                timeoutsEmitted++;
                if (wantsTimeouts) {
                    sink.onTimeout(materialize(timeoutEntry[i]), timeoutTime[i]);
                }
            }
        }
        for (int i = 0; i < timeoutCount; i++) {
            buffer.release(timeoutEntry[i]);
        }
        timeoutCount = 0;
        return skipFailure;
    }

    /** @return the earliest time at which one of the key's partial matches expires, MAX_VALUE if none can */
    private long earliestExpiry(KeyState st) {
        long earliest = Long.MAX_VALUE;
        if (timeCanExpire) {
            for (int i = 0; i < st.count; i++) {
                earliest = Math.min(earliest, expiryOf(st.stateEntry(i), st.startTime(i), st.prevTime(i)));
            }
        }
        return earliest;
    }

    /** {@link #earliestExpiry(KeyState)} of the first {@code n} partial matches of a scratch array. */
    private long earliestExpiry(long[] pm, int n) {
        long earliest = Long.MAX_VALUE;
        if (timeCanExpire && !program.anyGap) {
            // only the whole-pattern window: the earliest start decides (no per-state gap to look up)
            long firstStart = Long.MAX_VALUE;
            boolean any = false;
            for (int at = 0; at < n * KeyState.STRIDE; at += KeyState.STRIDE) {
                if (KeyState.stateOf(pm[at + KeyState.STATE_ENTRY]) != program.startState) {
                    firstStart = Math.min(firstStart, pm[at + KeyState.START_TIME]);
                    any = true;
                }
            }
            return any ? saturatedAdd(firstStart, program.window) : Long.MAX_VALUE;
        }
        if (timeCanExpire) {
            for (int at = 0; at < n * KeyState.STRIDE; at += KeyState.STRIDE) {
                earliest = Math.min(earliest, expiryOf(pm[at + KeyState.STATE_ENTRY], pm[at + KeyState.START_TIME],
                        pm[at + KeyState.PREV_TIME]));
            }
        }
        return earliest;
    }

    /** @return when one partial match expires: its window or its stage's gap closes (MAX_VALUE for neither) */
    private long expiryOf(long stateEntry, long startTime, long prevTime) {
        int s = KeyState.stateOf(stateEntry);
        if (s == program.startState) {
            return Long.MAX_VALUE;
        }
        long earliest = Long.MAX_VALUE;
        if (program.window > 0) {
            earliest = saturatedAdd(startTime, program.window);
        }
        long gap = program.stateGap[s];
        if (gap > 0) {
            earliest = Math.min(earliest, saturatedAdd(prevTime, gap));
        }
        return earliest;
    }

    private static long saturatedAdd(long time, long span) {
        long sum = time + span;
        return sum < time ? Long.MAX_VALUE : sum;
    }

    /**
     * The earlier timeout of this advance that timeout {@code i} repeats (the same entry, or an entry with the
     * same event, stage and recursively equal predecessor), -1 if none. Timeouts are bucketed by their last
     * event so only candidates in the same bucket are compared: linear for the usual case of distinct timeouts.
     */
    private int earlierSameTimeout(int i) {
        int entry = timeoutEntry[i];
        int slot = buffer.eventSlot(entry);
        int bucket = slot & (timeoutBucketHead.length - 1);
        for (int j = timeoutBucketHead[bucket]; j >= 0; j = timeoutBucketNext[j]) {
            if (sameChain(entry, timeoutEntry[j])) {
                return j;
            }
        }
        timeoutBucketNext[i] = timeoutBucketHead[bucket];
        timeoutBucketHead[bucket] = i;
        return -1;
    }

    private void prepareTimeoutBuckets() {
        int size = Integer.highestOneBit(Math.max(4, timeoutCount * 2 - 1) * 2);
        if (timeoutBucketHead.length < size) {
            timeoutBucketHead = new int[size];
        }
        Arrays.fill(timeoutBucketHead, -1);
        if (timeoutBucketNext.length < timeoutCount) {
            timeoutBucketNext = new int[timeoutEntry.length];
        }
        if (timeoutRepeats.length < timeoutCount) {
            timeoutRepeats = new boolean[timeoutEntry.length];
        }
    }

    private boolean sameChain(int a, int b) {
        while (a != NONE && b != NONE) {
            if (a == b) {
                return true;
            }
            if (buffer.eventSlot(a) != buffer.eventSlot(b) || buffer.stage(a) != buffer.stage(b)) {
                return false;
            }
            a = buffer.prev(a);
            b = buffer.prev(b);
        }
        return a == b;
    }

    // ------------------------------------------------------------------ one event

    /**
     * Matches one event (the key's time is already advanced to it).
     *
     * @return the failure of a held match the skip strategy could not handle (see {@link #releaseHeld}), for the
     *     caller to throw; null if none
     */
    private RuntimeException step(KeyState st, T e, long time, MatchSink<T> sink) {
        event = e;
        eventTime = time;
        eventSeq = ++seqCounter;
        eventSlot = NONE;
        eventStamp = e == probedEvent ? probedStamp : ++stampCounter;
        probedEvent = null;
        decisionPoolSize = 0;
        newCount = 0;
        matchCount = 0;
        createdCount = 0;
        inheritingNew = 0;
        inheritedOld = 0;
        try {
            if (oldInherited.length < st.count) {
                oldInherited = new boolean[Math.max(st.count, oldInherited.length * 2)];
            }
            // in queue order, then the start state: the order Flink visits its queue of partial matches in (its
            // start state sorts after every partial match and is always added last, so it stays last), which is
            // the order new partial matches and matches are added to its queues
            for (int i = 0; i < st.count; i++) {
                long stateEntry = st.stateEntry(i);
                branchOrigin = i;
                branch(KeyState.stateOf(stateEntry), KeyState.entryOf(stateEntry), st.startTime(i), st.prevTime(i),
                        st.startSeq(i));
            }
            branchOrigin = -1;
            branch(program.startState, NONE, time, time, eventSeq);
        } catch (RuntimeException ex) {
            rollback();
            throw conditionFailure(st, ex);
        } catch (Error error) {
            // not ours to wrap (an AssertionError, an OutOfMemoryError), but the key's state must stay as it was
            rollback();
            throw error;
        }
        // held matches count toward the bound: they keep their events buffered as partial matches do
        if (newCount + st.heldCount > maxPartialMatches) {
            if (failOnOverflow) {
                rollback();
                throw new PartialMatchLimitException("key " + st.key + " would hold " + newCount
                        + " partial matches and " + st.heldCount + " held matches at event time " + time
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
        } else {
            commit(st);
        }
        int completed = matchCount;
        event = null;
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

    /** Computes the successors of one partial match (or of the start state) into the scratch arrays. */
    private void branch(int state, int entry, long startTime, long prevTime, long startSeq) {
        // the first successor of an old partial match continues it; what else it branches into, and what the
        // start state starts, is new (see rejectNew)
        continuationSlot = branchOrigin >= 0 ? newCount : -1;
        partialStamp = ++stampCounter;
        contextEntry = entry;
        boolean isStart = state == program.startState;
        branchInherit = INHERIT_NONE;
        int decision = decide(state);
        int[] picked = decisionPool; // read after decide: deciding may have grown it
        if (edgeCount == 1 && entry != NONE && branchOrigin >= 0 && program.edgeTarget[picked[decision]] == state
                && program.edgeAction[picked[decision]] == Program.IGNORE) {
            // the common case of a waiting run: it ignores the event and lives on unchanged with its reference
            // (what the loop below does for it, without re-checking the target's kind and the copy)
            keepUnchanged(state, entry, startTime, prevTime, startSeq);
            oldInherited[branchOrigin] = true;
            inheritedOld++;
            return;
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
                    int fin = cachedFinalAfterProceed(target);
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
    }

    /**
     * Picks the edges to follow from a state for the current event, as (edge, source state) pairs in
     * {@link #decisionPool}; reuses the decision made for another partial match in the same state when it
     * depends on the event alone.
     *
     * @return where the pairs start in the pool; {@link #edgeCount} says how many there are
     */
    private int decide(int state) {
        int at = decisionPoolSize;
        if (!program.decisionDependsOnEventOnly[state]) {
            edgeCount = collectEdges(state, at); // scratch space: the next decision overwrites it
            return at;
        }
        if (decisionStamp[state] == eventStamp) {
            edgeCount = decisionLength[state];
            return decisionStart[state];
        }
        int n = collectEdges(state, at);
        decisionStart[state] = at;
        decisionLength[state] = n;
        decisionStamp[state] = eventStamp;
        decisionPoolSize = at + 2 * n;
        edgeCount = n;
        return at;
    }

    /**
     * Depth-first over PROCEED edges; writes the TAKE and IGNORE edges whose condition holds, in order, as
     * (edge, source state) pairs into {@link #decisionPool} from {@code at}.
     *
     * @return the number of pairs
     */
    private int collectEdges(int from, int at) {
        if (!program.hasProceed[from]) {
            return collectOwnEdges(from, at);
        }
        int n = 0;
        int sp = 0;
        stack[sp++] = from;
        while (sp > 0) {
            int s = stack[--sp];
            evaluatingState = s;
            for (int e = program.edgeStart[s]; e < program.edgeStart[s + 1]; e++) {
                evaluatingEdge = e;
                if (!holds(e)) {
                    continue;
                }
                if (program.edgeAction[e] == Program.PROCEED) {
                    if (sp == stack.length) {
                        stack = Arrays.copyOf(stack, sp * 2);
                    }
                    stack[sp++] = program.edgeTarget[e];
                } else {
                    putDecision(at + 2 * n++, e, s);
                }
            }
        }
        evaluatingEdge = -1;
        return n;
    }

    /** {@link #collectEdges} for a state without PROCEED edges: its own edges only, no stack. */
    private int collectOwnEdges(int s, int at) {
        int n = 0;
        evaluatingState = s;
        for (int e = program.edgeStart[s]; e < program.edgeStart[s + 1]; e++) {
            evaluatingEdge = e;
            if (holds(e)) {
                putDecision(at + 2 * n++, e, s);
            }
        }
        evaluatingEdge = -1;
        return n;
    }

    /** Writes the pair (edge, source state) at {@code w} of {@link #decisionPool}, growing it if needed. */
    private void putDecision(int w, int edge, int source) {
        if (w + 2 > decisionPool.length) {
            decisionPool = Arrays.copyOf(decisionPool, Math.max(decisionPool.length * 2, w + 2));
        }
        decisionPool[w] = edge;
        decisionPool[w + 1] = source;
    }

    /** Evaluates an edge's condition; the common shapes avoid the expression tree's virtual calls. */
    private boolean holds(int edge) {
        switch (edgeShape[edge]) {
            case SIMPLE_ATOM:
                return simpleAtom(program.edgeCondAtom[edge]);
            case NOT_SIMPLE_ATOM:
                return !simpleAtom(program.edgeCondAtom[edge]);
            case Program.COND_TRUE:
                return true;
            case Program.COND_ATOM:
                return atomSource.atom(program.edgeCondAtom[edge]);
            case Program.COND_NOT_ATOM:
                return !atomSource.atom(program.edgeCondAtom[edge]);
            default:
                return program.edgeCondition[edge].eval(atomSource);
        }
    }

    /** {@link Atoms#atom} for a simple atom: evaluated once per event. */
    private boolean simpleAtom(int index) {
        if (atomStamp[index] == eventStamp) {
            return atomValue[index];
        }
        SimpleCondition<T> simple = simpleAtoms[index];
        boolean v = simple != null ? simple.filter(event) : program.atoms[index].test(event, context);
        atomValue[index] = v;
        atomStamp[index] = eventStamp;
        return v;
    }

    private int cachedFinalAfterProceed(int state) {
        if (!program.finalDependsOnEventOnly[state]) {
            return finalAfterProceed(state);
        }
        if (finalStamp[state] != eventStamp) {
            finalState[state] = finalAfterProceed(state);
            finalStamp[state] = eventStamp;
        }
        return finalState[state];
    }

    /** After a TAKE into {@code state}: the final state if PROCEED edges that hold lead there, else -1. */
    private int finalAfterProceed(int state) {
        int[] local = stack; // free again: collectEdges has finished with it
        int sp = 0;
        local[sp++] = state;
        while (sp > 0) {
            int s = local[--sp];
            for (int e = program.edgeStart[s]; e < program.edgeStart[s + 1]; e++) {
                if (program.edgeAction[e] != Program.PROCEED) {
                    continue;
                }
                evaluatingState = s;
                evaluatingEdge = -1;
                if (!holds(e)) {
                    continue;
                }
                int t = program.edgeTarget[e];
                if (program.stateKind[t] == Program.FINAL) {
                    return t;
                }
                if (sp == local.length) {
                    local = Arrays.copyOf(local, sp * 2);
                    stack = local;
                }
                local[sp++] = t;
            }
        }
        return -1;
    }

    /** @return true if the target is a STOP state (the branch must be discarded) */
    private boolean add(int target, int entry, long startTime, long prevTime, long startSeq) {
        byte kind = program.stateKind[target];
        if (kind == Program.STOP) {
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

    private void addTimeout(int entry, long time) {
        if (timeoutCount == timeoutEntry.length) {
            timeoutEntry = Arrays.copyOf(timeoutEntry, timeoutCount * 2);
            timeoutTime = Arrays.copyOf(timeoutTime, timeoutCount * 2);
        }
        timeoutEntry[timeoutCount] = entry;
        timeoutTime[timeoutCount++] = time;
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
        st.expiresAt = earliestExpiry(next, newCount);
    }

    private long[] queueCapacity(int records) {
        if (queue.length < records * KeyState.STRIDE) {
            queue = new long[Math.max(records, queue.length / KeyState.STRIDE * 2) * KeyState.STRIDE];
        }
        return queue;
    }

    /** Undoes the entries a failed step created; the key's state was not touched yet. */
    private void rollback() {
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
    }

    private RuntimeException conditionFailure(KeyState st, RuntimeException ex) {
        // a NOT stage's condition is evaluated on the edge into its STOP state: name that state
        int failed = evaluatingEdge >= 0 && program.stateKind[program.edgeTarget[evaluatingEdge]] == Program.STOP
                ? program.edgeTarget[evaluatingEdge] : evaluatingState;
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
            long pruneAt = pruningSeq(entry, startSeq);
            if (pruneAt == SKIP_TARGET_MISSING || pruneAt == SKIP_TARGET_IS_FIRST) {
                failure = merge(failure, skipFailure(st, entry, pruneAt == SKIP_TARGET_MISSING));
                buffer.release(entry);
                continue;
            }
            if (pruneAt != Long.MIN_VALUE) {
                prune(st, pruneAt);
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

    private RuntimeException skipFailure(KeyState st, int entry, boolean missing) {
        AfterMatchSkipStrategy skip = program.skipStrategy;
        String strategy = skip.kind() + "('" + skip.stage() + "') with throwExceptionOnMiss";
        String why = missing
                ? "Could not skip to stage '" + skip.stage() + "': the match has no such element"
                : "Could not skip to first element of a match: the " + (skip.kind()
                        == AfterMatchSkipStrategy.Kind.SKIP_TO_FIRST ? "first" : "last") + " event of stage '"
                        + skip.stage() + "' is the match's first event, so skipping to it would prune nothing";
        return new SkipStrategyException(why + " (after-match skip strategy " + strategy + ", key " + st.key
                + ", match " + materialize(entry) + "); the match was dropped, not emitted");
    }

    private static long earliestStart(KeyState st) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < st.count; i++) {
            min = Math.min(min, st.startSeq(i));
        }
        return min;
    }

    /** {@link #pruningSeq}: the named stage is missing from the match and the strategy throws then. */
    private static final long SKIP_TARGET_MISSING = Long.MIN_VALUE + 1;
    /** {@link #pruningSeq}: the target is the match's first event and the strategy throws then. */
    private static final long SKIP_TARGET_IS_FIRST = Long.MIN_VALUE + 2;

    /**
     * @param entry    the match's last buffer entry
     * @param startSeq the sequence number of the match's first event
     * @return the event sequence number partial matches are pruned against, MIN_VALUE for none, or (only with
     *     {@code throwExceptionOnMiss}) {@link #SKIP_TARGET_MISSING} or {@link #SKIP_TARGET_IS_FIRST}; event
     *     sequence numbers are positive, so these cannot be mistaken for one
     */
    private long pruningSeq(int entry, long startSeq) {
        AfterMatchSkipStrategy skip = program.skipStrategy;
        switch (skip.kind()) {
            case SKIP_PAST_LAST_EVENT:
                return buffer.seq(entry);
            case SKIP_TO_NEXT: {
                long first = Long.MAX_VALUE;
                for (int e = entry; e != NONE; e = buffer.prev(e)) {
                    first = Math.min(first, buffer.seq(e));
                }
                return first;
            }
            case SKIP_TO_FIRST:
            case SKIP_TO_LAST: {
                long found = Long.MIN_VALUE;
                for (int e = entry; e != NONE; e = buffer.prev(e)) {
                    if (buffer.stage(e) == program.skipStage) {
                        found = buffer.seq(e);
                        if (skip.kind() == AfterMatchSkipStrategy.Kind.SKIP_TO_LAST) {
                            break;
                        }
                    }
                }
                if (skip.throwOnAbsent()) {
                    if (found == Long.MIN_VALUE) {
                        return SKIP_TARGET_MISSING;
                    }
                    if (found == startSeq) {
                        return SKIP_TARGET_IS_FIRST;
                    }
                }
                return found;
            }
            default:
                return Long.MIN_VALUE;
        }
    }

    private void prune(KeyState st, long pruneAt) {
        boolean inclusive = program.skipStrategy.kind() == AfterMatchSkipStrategy.Kind.SKIP_TO_NEXT
                || program.skipStrategy.kind() == AfterMatchSkipStrategy.Kind.SKIP_PAST_LAST_EVENT;
        // Flink removes the pruned ones from its queues: the others close up in queue order, and the queue is
        // re-heaped if anything went
        int records = st.count;
        long[] q = queueCapacity(records);
        st.copyTo(q);
        int kept = 0;
        for (int r = 0; r < records; r++) {
            int at = r * KeyState.STRIDE;
            long s = q[at + KeyState.START_SEQ];
            if (inclusive ? s <= pruneAt : s < pruneAt) {
                int entry = KeyState.entryOf(q[at + KeyState.STATE_ENTRY]);
                if (entry != NONE) {
                    buffer.release(entry);
                }
                continue;
            }
            if (kept != r) {
                System.arraycopy(q, at, q, kept * KeyState.STRIDE, KeyState.STRIDE);
            }
            kept++;
        }
        if (kept != records) {
            StartQueue.heapify(q, kept);
            livePartialMatches -= records - kept;
            st.replaceAll(q, kept);
            st.expiresAt = earliestExpiry(st);
        }
        int held = 0;
        for (int i = 0; i < st.heldCount; i++) {
            long s = st.heldStartSeq[i];
            if (inclusive ? s <= pruneAt : s < pruneAt) {
                buffer.release(st.heldEntry[i]);
                continue;
            }
            st.heldEntry[held] = st.heldEntry[i];
            st.heldStartSeq[held++] = s;
        }
        if (held != st.heldCount) {
            st.heldCount = held;
            StartQueue.heapify(st.heldEntry, st.heldStartSeq, held);
        }
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

    /** Evaluates atoms with caching: simple ones once per event, iterative ones once per partial match. */
    private final class Atoms implements Expr.AtomSource {
        @Override
        public boolean atom(int index) {
            boolean iterative = program.atomIterative[index];
            long stamp = atomStamp[index];
            if (iterative ? stamp == partialStamp : stamp >= eventStamp) {
                return atomValue[index];
            }
            SimpleCondition<T> simple = simpleAtoms[index];
            boolean v = simple != null ? simple.filter(event) : program.atoms[index].test(event, context);
            atomValue[index] = v;
            atomStamp[index] = iterative ? partialStamp : eventStamp;
            return v;
        }
    }

    /** What iterative conditions see: the partial match being extended. */
    private final class Context implements Condition.Context<T> {
        @Override
        @SuppressWarnings("unchecked")
        public List<T> eventsForPattern(String stage) {
            int index = program.stageIndexOf(stage);
            List<T> out = new ArrayList<>();
            for (int e = contextEntry; e != NONE; e = buffer.prev(e)) {
                if (buffer.stage(e) == index) {
                    out.add((T) buffer.event(e));
                }
            }
            java.util.Collections.reverse(out);
            return out;
        }

        @Override
        public long timestamp() {
            return eventTime;
        }

        @Override
        public long currentProcessingTime() {
            return processingTime.getAsLong();
        }
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

    /** @return matches emitted */
    public long matchesEmitted() {
        return matchesEmitted;
    }

    /** @return timeouts emitted */
    public long timeoutsEmitted() {
        return timeoutsEmitted;
    }
}

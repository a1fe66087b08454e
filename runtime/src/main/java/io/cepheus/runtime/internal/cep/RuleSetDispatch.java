package io.cepheus.runtime.internal.cep;

import io.cepheus.runtime.internal.shard.ShardOperator;
import io.cepheus.runtime.internal.timer.KeyDueWheel;
import java.util.Arrays;

/**
 * The versions of a rule set on one shard, as the events its buffer releases reach them: which versions an event
 * goes to, in which order, and which versions a watermark visits.
 *
 * <p>Each version sees the events by their arrival number ({@link EventTimeBuffer#releasingArrival()}): nothing
 * that arrived before it joined, every event that arrived before it was retired, and after that either nothing (its
 * partial matches are discarded) or only what extends the partial matches it has (it drains). An event goes only to
 * the versions holding state for its key ({@link KeyHolders}) whose waiting partial matches it may change, and to
 * those whose start conditions it may meet ({@link ConditionIndex}), in the order the versions joined; to the others
 * it would begin nothing and change nothing. An arriving event that no version may begin or extend, whatever its
 * key, is not even kept ({@link #concernsAnyVersion}). A watermark visits only the versions handed events in its
 * round or with keys due: every entry of a version's expiry table is mirrored in one wheel of the rule set's
 * ({@link #memberDue}), so a thousand versions with nothing to do cost nothing.
 *
 * <p>Versions are known by a handle, a slot reused once its version leaves.
 *
 * <p>Owned by the shard's worker thread, like the rule set's buffer that holds it.
 *
 * @param <T> the event type
 */
final class RuleSetDispatch<T> {

    private final EventTimeBuffer<T> buffer;
    /** Frees a key no version holds anything for. */
    private final ShardOperator.KeyRelease idle;
    private final KeyHolders holders = new KeyHolders();
    private final ConditionIndex<T> index = new ConditionIndex<>();
    private int members;
    /** The watermark of the current round. */
    private long roundWatermark = Long.MIN_VALUE;

    // a rule set's members, by handle (a slot reused once its member leaves)
    @SuppressWarnings("unchecked")
    private CepOperator<T>[] byHandle = new CepOperator[4];
    /** Per handle, when its member joined: members see an event in this order. */
    private long[] joinOrder = new long[4];
    private long joins;
    /** Per handle, the first arrival its member sees. */
    private long[] from = new long[4];
    /** Per handle, the arrival from which its member only extends its partial matches (retired to drain). */
    private long[] fullUntil = new long[4];
    /** Per handle, the arrival from which its member sees nothing (retired to discard). */
    private long[] until = new long[4];
    /** Per handle of a retired member, how many events that arrived before its retirement are still buffered. */
    private long[] pendingBefore = new long[4];
    private int[] freeHandles = new int[4];
    private int freeCount;
    private int handleCount;
    /** The handles of retired members, which count down {@link #pendingBefore}. */
    private int[] retired = new int[4];
    private int retiredCount;
    // one event's dispatch: the handles picked, and per handle the event it was last picked (and found holding) for
    private int[] picked = new int[16];
    private long[] pickedFor = new long[4];
    private long[] heldFor = new long[4];
    private long dispatches;
    // a rule set's rounds: members are visited at a watermark only if they received events or have keys due
    /** The current watermark's round; a member's round opens when it is first visited in it. */
    private long round;
    /** Per handle, the last round its member was visited in, and the last in which it had keys due. */
    private long[] visitedIn = new long[4];
    private long[] dueIn = new long[4];
    /** The handles visited in this round, in the order of their first visit (join order once sorted). */
    private int[] roundHandles = new int[16];
    private int roundCount;
    private long[] roundKeys = new long[16];
    /** When each member next has keys due (entries of its handle, some stale: a visit too many costs little). */
    // one-second slices, a lap of over four minutes; an emptied slice gives its room back (it held one entry per
    // version expiry armed in that second, and would keep that room for every later lap)
    private final KeyDueWheel dueMembers = new KeyDueWheel(1_024, 256, 64);
    /** The members visited since {@link #takeVisited} last handed them out (their counters may have changed). */
    private int[] visited = new int[16];
    private int visitedCount;
    private boolean[] listedVisited = new boolean[4];

    /**
     * @param buffer the rule set's event buffer
     * @param idle   frees a key that no version holds anything for
     */
    RuleSetDispatch(EventTimeBuffer<T> buffer, ShardOperator.KeyRelease idle) {
        this.buffer = buffer;
        this.idle = idle;
    }

    /** @return the record of the versions holding state for each key */
    KeyHolders holders() {
        return holders;
    }

    /** Tests: @return the index of the versions' conditions */
    ConditionIndex<T> index() {
        return index;
    }

    /** @return how many versions there are */
    int members() {
        return members;
    }

    /** @return a version's lookahead for the release (reading ahead the events it will read), or null if none */
    EventTimeBuffer.Lookahead<T> lookahead() {
        for (int h = 0; h < handleCount; h++) {
            if (byHandle[h] != null) {
                return byHandle[h].lookahead();
            }
        }
        return null;
    }

    /** Starts a watermark's round: each version's round opens when it is first visited in it (see {@link #visit}). */
    void newRound(long watermark) {
        round++;
        roundCount = 0;
        roundWatermark = watermark;
    }

    /**
     * Whether an arriving event may concern some version present: begin a partial match, or change one that may be
     * waiting for its key when it is released ({@link ConditionIndex#mayConcern}). An event that concerns none would
     * be handed to no version, so the rule set need not buffer it, nor give its key an id; a version that joins later
     * never sees it either, as it sees only events that arrive after it.
     */
    boolean concernsAnyVersion(T event) {
        return members > 0 && index.mayConcern(event);
    }

    /** A released event: to the versions it concerns, and its key freed if nothing holds it any more. */
    void dispatch(int keyId, T event, long timestamp) {
        dispatchByArrival(keyId, event, timestamp);
        if (buffer.bufferedFor(keyId) == 0 && !holders.any(keyId)) {
            idle.idle(keyId);
        }
    }

    /**
     * Adds a rule version that sees the events arriving from now on (or, for one restored from a snapshot, from
     * {@code firstArrival}).
     *
     * @param member       the version's operator (which {@link CepOperator#ruleVersionOf} made a member)
     * @param firstArrival the first arrival number it sees
     * @return the member's handle, under which it tells {@link #holders()} of the keys it holds
     */
    int joinAt(CepOperator<T> member, long firstArrival) {
        if (freeCount == 0 && handleCount > HANDLE_MASK) {
            throw new IllegalStateException("a rule set takes at most " + (HANDLE_MASK + 1) + " versions per shard");
        }
        int h = freeCount > 0 ? freeHandles[--freeCount] : handleCount++;
        if (h == byHandle.length) {
            int n = h * 2;
            byHandle = Arrays.copyOf(byHandle, n);
            joinOrder = Arrays.copyOf(joinOrder, n);
            from = Arrays.copyOf(from, n);
            fullUntil = Arrays.copyOf(fullUntil, n);
            until = Arrays.copyOf(until, n);
            pendingBefore = Arrays.copyOf(pendingBefore, n);
            pickedFor = Arrays.copyOf(pickedFor, n);
            heldFor = Arrays.copyOf(heldFor, n);
            visitedIn = Arrays.copyOf(visitedIn, n);
            dueIn = Arrays.copyOf(dueIn, n);
            listedVisited = Arrays.copyOf(listedVisited, n);
        }
        members++;
        byHandle[h] = member;
        joinOrder[h] = joins++;
        from[h] = firstArrival;
        fullUntil[h] = Long.MAX_VALUE;
        until[h] = Long.MAX_VALUE;
        pendingBefore[h] = 0;
        pickedFor[h] = 0;
        heldFor[h] = 0;
        visitedIn[h] = 0;
        dueIn[h] = 0;
        listVisited(h);
        index.put(h, member.startConditions(), member.waitingConditions());
        return h;
    }

    /**
     * Retires a rule version at the current arrival: it still sees, in full, every event that arrived before, and
     * after it only those that extend its partial matches ({@code drain}) or none.
     *
     * @param retiredAt       the first arrival it no longer sees in full
     * @param pendingBefore   how many events that arrived before {@code retiredAt} are still buffered
     */
    void retire(CepOperator<T> member, boolean drain, long retiredAt, long pendingBefore) {
        int h = handleOf(member);
        fullUntil[h] = retiredAt;
        until[h] = drain ? Long.MAX_VALUE : retiredAt;
        this.pendingBefore[h] = pendingBefore;
        if (retiredCount == retired.length) {
            retired = Arrays.copyOf(retired, retiredCount * 2);
        }
        retired[retiredCount++] = h;
    }

    /** @return how many events that arrived before {@code member} was retired are still buffered (0 if it is not) */
    long pendingBefore(CepOperator<T> member) {
        return pendingBefore[handleOf(member)];
    }

    /** @return the first arrival {@code member} sees */
    long firstArrival(CepOperator<T> member) {
        return from[handleOf(member)];
    }

    /** @return the arrival from which {@code member} sees events only to extend (Long.MAX_VALUE if not retired) */
    long retiredAt(CepOperator<T> member) {
        return fullUntil[handleOf(member)];
    }

    /** @return whether {@code member} was retired to drain (it goes on seeing what extends its partial matches) */
    boolean drains(CepOperator<T> member) {
        int h = handleOf(member);
        return fullUntil[h] != Long.MAX_VALUE && until[h] == Long.MAX_VALUE;
    }

    /** Removes a rule version that is done (it holds no key). */
    void leave(CepOperator<T> member) {
        int h = handleOf(member);
        members--;
        byHandle[h] = null;
        index.remove(h);
        for (int i = 0; i < retiredCount; i++) {
            if (retired[i] == h) {
                retired[i] = retired[--retiredCount];
                break;
            }
        }
        if (freeCount == freeHandles.length) {
            freeHandles = Arrays.copyOf(freeHandles, freeCount * 2);
        }
        freeHandles[freeCount++] = h;
    }

    private int handleOf(CepOperator<T> member) {
        int h = member.ruleHandle();
        if (h < 0 || h >= byHandle.length || byHandle[h] != member) {
            throw new IllegalStateException("not a member of this buffer");
        }
        return h;
    }

    /**
     * Hands a released event to the members that may do something with it: those holding state for its key whose
     * waiting partial matches it may change, and those it may begin a partial match of, each within the arrivals it
     * sees. If a field of the event cannot be read, every member that sees it gets it (its conditions will say).
     */
    private void dispatchByArrival(int keyId, T event, long timestamp) {
        long arrival = buffer.releasingArrival();
        for (int i = 0; i < retiredCount; i++) {
            int h = retired[i];
            if (arrival < fullUntil[h]) {
                pendingBefore[h]--; // counted down whether or not the member sees it: it arrived before
            }
        }
        long stamp = ++dispatches;
        boolean read = index.read(event);
        int n = 0;
        for (int node = holders.first(keyId); node != 0; node = holders.next(node)) {
            int h = holders.holder(node);
            heldFor[h] = stamp;
            if (arrival >= from[h] && arrival < until[h] && (!read || index.mayChange(h))) {
                n = pick(h, n, stamp);
            }
        }
        if (read) {
            int found = index.collect();
            int[] starts = index.found();
            for (int i = 0; i < found; i++) {
                int h = starts[i];
                if (pickedFor[h] != stamp && arrival >= from[h] && arrival < fullUntil[h] && index.mayBegin(h)) {
                    n = pick(h, n, stamp);
                }
            }
        } else {
            for (int h = 0; h < handleCount; h++) {
                if (byHandle[h] != null && pickedFor[h] != stamp && arrival >= from[h] && arrival < fullUntil[h]) {
                    n = pick(h, n, stamp);
                }
            }
        }
        sortByJoinOrder(n);
        for (int i = 0; i < n; i++) {
            int h = picked[i];
            CepOperator<T> member = byHandle[h];
            boolean held = heldFor[h] == stamp;
            visit(h);
            if (arrival < fullUntil[h]) {
                if (held) {
                    member.match(keyId, event, timestamp);
                } else {
                    member.matchUnheld(keyId, event, timestamp);
                }
            } else if (held) {
                member.matchWithoutStarting(keyId, event, timestamp);
            }
        }
    }

    /**
     * A rule version is visited in this watermark's round: it is handed an event, or keys of it are due. Its round
     * opens on the first visit, and it is listed for {@link #takeVisited}.
     */
    private void visit(int h) {
        if (visitedIn[h] != round) {
            visitedIn[h] = round;
            byHandle[h].openRound();
            listVisited(h);
            if (roundCount == roundHandles.length) {
                roundHandles = Arrays.copyOf(roundHandles, roundCount * 2);
            }
            roundHandles[roundCount++] = h;
        }
    }

    /**
     * Puts the rule versions visited in this round in the order they joined, for {@link #roundMember}.
     *
     * @return how many there are
     */
    int sortRound() {
        int n = roundCount;
        if (roundKeys.length < n) {
            roundKeys = new long[roundHandles.length];
        }
        for (int i = 0; i < n; i++) {
            int h = roundHandles[i];
            roundKeys[i] = joinOrder[h] << HANDLE_BITS | h;
        }
        Arrays.sort(roundKeys, 0, n);
        for (int i = 0; i < n; i++) {
            roundHandles[i] = (int) (roundKeys[i] & HANDLE_MASK);
        }
        return n;
    }

    /**
     * @return the {@code i}th rule version visited in this round, in join order (after {@link #sortRound}), or null
     *         if it left
     */
    CepOperator<T> roundMember(int i) {
        return byHandle[roundHandles[i]];
    }

    /** Handles fit in 20 bits: a million rule versions on a shard. */
    private static final int HANDLE_BITS = 20;
    private static final long HANDLE_MASK = (1L << HANDLE_BITS) - 1;

    private void listVisited(int h) {
        if (!listedVisited[h]) {
            listedVisited[h] = true;
            if (visitedCount == visited.length) {
                visited = Arrays.copyOf(visited, visitedCount * 2);
            }
            visited[visitedCount++] = h;
        }
    }

    /** A rule version's key is next due at {@code time} (its expiry table took an entry). */
    void memberDue(int handle, long time) {
        dueMembers.add(Math.max(time, roundWatermark + 1), handle);
    }

    /** Visits the rule versions with keys due at the watermark of this round. */
    void visitDue(long watermark) {
        int n = dueMembers.takeDue(watermark);
        for (int i = 0; i < n; i++) {
            int h = dueMembers.takenKey(i);
            if (h < byHandle.length && byHandle[h] != null) {
                visit(h);
                dueIn[h] = round;
            }
        }
        dueMembers.trimTaken();
    }

    /** @return whether the {@code i}th version of this round (see {@link #roundMember}) has keys due */
    boolean roundMemberDue(int i) {
        return dueIn[roundHandles[i]] == round;
    }

    /** Lists {@code member} for the next {@link #takeVisited}: its counters changed outside a round. */
    void touchedOutsideRound(CepOperator<T> member) {
        listVisited(handleOf(member));
    }

    /**
     * Hands out the handles of the rule versions visited since the last call, and forgets them.
     *
     * @param out receives the handles (and is returned, grown if needed)
     * @return the handles, {@link #takenVisited()} of them
     */
    int[] takeVisited(int[] out) {
        int[] o = out.length >= visitedCount ? out : new int[visitedCount];
        for (int i = 0; i < visitedCount; i++) {
            o[i] = visited[i];
            listedVisited[visited[i]] = false;
        }
        takenVisited = visitedCount;
        visitedCount = 0;
        return o;
    }

    /** @return how many handles the last {@link #takeVisited} handed out */
    int takenVisited() {
        return takenVisited;
    }

    private int takenVisited;

    private int pick(int h, int n, long stamp) {
        if (n == picked.length) {
            picked = Arrays.copyOf(picked, n * 2);
        }
        pickedFor[h] = stamp;
        picked[n] = h;
        return n + 1;
    }

    /** Insertion sort: an event reaches a few members, which see it in the order they joined. */
    private void sortByJoinOrder(int n) {
        for (int i = 1; i < n; i++) {
            int h = picked[i];
            long order = joinOrder[h];
            int j = i - 1;
            while (j >= 0 && joinOrder[picked[j]] > order) {
                picked[j + 1] = picked[j];
                j--;
            }
            picked[j + 1] = h;
        }
    }
}

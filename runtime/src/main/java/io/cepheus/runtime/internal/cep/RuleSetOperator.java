package io.cepheus.runtime.internal.cep;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.NfaOptions;
import io.cepheus.runtime.PatternMetrics;
import io.cepheus.runtime.internal.shard.ControlTarget;
import io.cepheus.runtime.internal.shard.KeyInspection;
import io.cepheus.runtime.internal.shard.KeyedOperator;
import io.cepheus.runtime.internal.shard.RestoreScope;
import io.cepheus.runtime.internal.shard.ShardContext;
import io.cepheus.runtime.rules.RestoredRules;
import io.cepheus.runtime.rules.RetirePolicy;
import io.cepheus.runtime.rules.RuleChange;
import io.cepheus.runtime.rules.RuleMetrics;
import io.cepheus.runtime.rules.RuleVersion;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule set on one shard: the versions of its rules in force, and the ones being retired, each a {@link CepOperator}
 * over the events of one buffer that the rule set owns.
 *
 * <p>Design. A change arrives as a control record at one point of the shard's input ({@link RuleCommand}), which is an
 * arrival number of the buffer ({@link EventTimeBuffer#arrivals()}): the events that arrived before it were sent
 * before the change, the later ones after it. A version put in force joins the buffer at that number and never sees
 * an earlier event, even one still waiting for the watermark; a version retired goes on seeing, in full, every event
 * that arrived before, and after it only what extends its partial matches ({@link RetirePolicy#DRAIN}) or nothing
 * ({@link RetirePolicy#DISCARD}). Events are released once per watermark in event-time order, as for patterns, and
 * each version sees them by arrival ({@link RuleSetDispatch}). A retired version leaves once no event that
 * arrived before its retirement is buffered and, when it drains, it holds no partial match; a discarded one drops
 * what it still holds then, counted.
 *
 * <p>Owned by the shard's worker thread; its metrics are published for readers on any thread at the end of each
 * batch.
 *
 * @param <T> the event type
 */
public final class RuleSetOperator<T> extends KeyedOperator<T> implements ControlTarget, KeyInspection {

    /** What the rule set needs from its builder: the outputs of each version, and the versions in force at start. */
    public interface Spec<T> {
        /** @return the output of one version on one shard */
        CepOperator.Output<T> output(RuleVersion rule, ShardContext<T> shard);

        /** @return where late events go (on the shard's thread) */
        LateOutput<T> lateOutput(ShardContext<T> shard);

        /** @return the versions in force when the engine starts (or restores), with their patterns */
        Map<RuleVersion, CompiledPattern<T>> initial();

        /** Receives what a restore did, shard by shard (on the thread that starts the engine). */
        void restored(RestoredRules shardReport);
    }

    /** Where the rule set's late events go. */
    @FunctionalInterface
    public interface LateOutput<T> {
        /** A late event of {@code key}: its timestamp was not after the watermark when it arrived. */
        void late(Object key, T event, long timestamp);
    }

    /** One version of a rule on this shard. */
    private static final class Member<T> {
        final RuleVersion rule;
        final CompiledPattern<T> pattern;
        final CepOperator<T> operator;
        /** Null while in force; how it ends once retired. */
        RetirePolicy retired;
        volatile long discarded;
        /** Its counters as last added to the rule set's totals (see {@link #TOTALS}). */
        final long[] counted = new long[TOTALS];

        Member(RuleVersion rule, CompiledPattern<T> pattern, CepOperator<T> operator) {
            this.rule = rule;
            this.pattern = pattern;
            this.operator = operator;
        }
    }

    // the counters summed over the versions present, kept up to date from the versions visited since the last sum:
    // with a thousand versions, summing all of them at every batch cost more than the batch's matching
    private static final int T_MATCHES = 0;
    private static final int T_TIMEOUTS = 1;
    private static final int T_DEAD = 2;
    private static final int T_REJECTED = 3;
    private static final int T_PARTIAL = 4;
    private static final int T_ENTRIES = 5;
    private static final int TOTALS = 6;
    private final long[] totals = new long[TOTALS];
    /** The members by their handle in the buffer. */
    @SuppressWarnings("unchecked")
    private Member<T>[] byHandle = new Member[4];
    private int[] visited = new int[16];
    /** Versions whose counters were summed (a getter, a version leaving) but not yet published. */
    private int[] unpublished = new int[16];
    private int unpublishedCount;
    private boolean[] unpublishedMark = new boolean[4];

    private final Spec<T> spec;
    private final ShardContext<T> shard;
    private final NfaOptions options;
    private final Comparator<? super T> tieBreaker;
    private final SharedEventBuffer<T> buffer;
    /** The buffer's versions: who gets which event, and whom a watermark visits. */
    private final RuleSetDispatch<T> versions;
    private final LateOutput<T> late;
    private final List<Member<T>> members = new ArrayList<>();
    /** The members as readers on other threads see them: replaced (never changed) when members come or go. */
    private volatile List<Member<T>> published = List.of();
    /** The last counters of versions that left, for readers on other threads: replaced when one leaves. */
    private volatile Map<RuleVersion, RuleMetrics> gone = Map.of();
    private long lateEvents;
    private volatile long publishedLate;
    /** How many members are retired and not gone yet. */
    private int retiredMembers;
    /** Buffers every event that is not late, whether or not a version may take it (see the constructor). */
    private final boolean keepsEveryArrival;

    /**
     * @param operatorId the rule set's id on the shard
     * @param spec       its outputs and initial versions
     * @param options    NFA options for every version (bound on partial matches)
     * @param tieBreaker orders events of equal timestamp before arrival order; null for none
     * @param shard      the shard it runs on
     * @param keepsEveryArrival buffer every event that is not late: for a host that keeps the buffered events itself
     *                   and puts each back, under the arrival number it counted, into every buffer of the shard
     *                   ({@link io.cepheus.runtime.internal.hosted.HostedShard}); false keeps out the events no
     *                   version may take ({@link ConditionIndex#mayConcern})
     */
    public RuleSetOperator(int operatorId, Spec<T> spec, NfaOptions options, Comparator<? super T> tieBreaker,
            ShardContext<T> shard, boolean keepsEveryArrival) {
        super(operatorId, shard.keys(), shard.timers());
        this.spec = spec;
        this.shard = shard;
        this.options = options;
        this.tieBreaker = tieBreaker;
        this.keepsEveryArrival = keepsEveryArrival;
        // the rule set's buffer frees a key after finding none of it buffered and no version holding it: what
        // holds() asks, so the shard need not ask again
        this.buffer = SharedEventBuffer.forRuleSet(tieBreaker, id -> keyRelease.idleChecked(id));
        this.versions = buffer.ruleSet();
        this.late = spec.lateOutput(shard);
        for (Map.Entry<RuleVersion, CompiledPattern<T>> e : spec.initial().entrySet()) {
            join(e.getKey(), e.getValue());
        }
        publish();
    }

    private Member<T> join(RuleVersion rule, CompiledPattern<T> pattern) {
        return join(rule, pattern, buffer.buffer().arrivals());
    }

    private Member<T> join(RuleVersion rule, CompiledPattern<T> pattern, long firstArrival) {
        CepOperator<T> op = CepOperator.forRuleVersion(operatorId, pattern, options, tieBreaker, keys, shard.timers(),
                spec.output(rule, shard));
        op.keyRelease(id -> keyRelease.idle(id));
        if (keyChanges != null) {
            op.keyChanges(keyChanges);
        }
        op.ruleVersionOf(buffer, firstArrival);
        Member<T> m = new Member<>(rule, pattern, op);
        members.add(m);
        indexByHandle(m);
        Map<Object, Integer> traced = tracedRules.get(rule.id());
        if (traced != null) {
            for (Map.Entry<Object, Integer> t : traced.entrySet()) {
                op.trace(t.getKey(), new TraceQuestion(TraceQuestion.Kind.START, rule.id(), t.getValue()),
                        subjectOf(rule));
            }
        }
        return m;
    }

    private void indexByHandle(Member<T> m) {
        int h = m.operator.ruleHandle();
        if (h >= byHandle.length) {
            byHandle = java.util.Arrays.copyOf(byHandle, Math.max(h + 1, byHandle.length * 2));
        }
        byHandle[h] = m;
    }

    /**
     * Adds to the totals what the counters of the versions visited since the last call changed by; at the end of a
     * batch also publishes the counters of those versions, and of the versions summed in between without publishing.
     */
    private void sumVisited(boolean endOfBatch) {
        visited = versions.takeVisited(visited);
        int n = versions.takenVisited();
        for (int i = 0; i < n; i++) {
            int h = visited[i];
            Member<T> m = h < byHandle.length ? byHandle[h] : null;
            if (m == null) {
                continue;
            }
            if (endOfBatch) {
                m.operator.endOfBatch();
            } else {
                unpublished(h);
            }
            count(m, T_MATCHES, m.operator.matches());
            count(m, T_TIMEOUTS, m.operator.timeouts());
            count(m, T_DEAD, m.operator.deadLetters());
            count(m, T_REJECTED, m.operator.rejectedPartialMatches());
            count(m, T_PARTIAL, m.operator.partialMatches());
            count(m, T_ENTRIES, m.operator.bufferedEntries());
        }
    }

    /** A version summed outside a batch's end: it publishes at the end of the batch. */
    private void unpublished(int h) {
        if (h >= unpublishedMark.length) {
            unpublishedMark = java.util.Arrays.copyOf(unpublishedMark, Math.max(h + 1, unpublishedMark.length * 2));
        }
        if (!unpublishedMark[h]) {
            unpublishedMark[h] = true;
            if (unpublishedCount == unpublished.length) {
                unpublished = java.util.Arrays.copyOf(unpublished, unpublishedCount * 2);
            }
            unpublished[unpublishedCount++] = h;
        }
    }

    private void publishUnpublished() {
        for (int i = 0; i < unpublishedCount; i++) {
            int h = unpublished[i];
            unpublishedMark[h] = false;
            Member<T> m = h < byHandle.length ? byHandle[h] : null;
            if (m != null) {
                m.operator.endOfBatch();
            }
        }
        unpublishedCount = 0;
    }

    private void count(Member<T> m, int counter, long now) {
        totals[counter] += now - m.counted[counter];
        m.counted[counter] = now;
    }

    // ------------------------------------------------------------------ changes

    @Override
    @SuppressWarnings("unchecked")
    public void onControl(Object command, RuleChange.ShardCut cut) {
        RuleCommand<T> c = (RuleCommand<T>) command;
        if (c.retired != null) {
            Member<T> m = inForce(c.retired.id());
            if (m != null) {
                m.retired = c.policy;
                retiredMembers++;
                versions.retire(m.operator, c.policy == RetirePolicy.DRAIN, buffer.buffer().arrivals(),
                        buffer.buffer().size());
            }
        }
        if (c.added != null) {
            join(c.added, c.pattern);
        }
        settleRetired();
        publish();
        c.applied(cut);
    }

    private Member<T> inForce(String id) {
        for (Member<T> m : members) {
            if (m.retired == null && m.rule.id().equals(id)) {
                return m;
            }
        }
        return null;
    }

    /** Lets retired versions go once the events sent before their retirement are matched (and, draining, they hold nothing). */
    private void settleRetired() {
        if (retiredMembers == 0) {
            return; // (a thousand versions in force need no look each watermark)
        }
        boolean changed = false;
        for (int i = members.size() - 1; i >= 0; i--) {
            Member<T> m = members.get(i);
            if (m.retired == null || versions.pendingBefore(m.operator) > 0) {
                continue;
            }
            if (m.retired == RetirePolicy.DISCARD) {
                m.discarded += m.operator.discardAll();
                versions.touchedOutsideRound(m.operator);
            } else if (m.operator.liveKeys() > 0) {
                continue;
            }
            sumVisited(false);
            for (int c = 0; c < TOTALS; c++) {
                totals[c] -= m.counted[c]; // its counts go on in the departed versions' metrics
            }
            byHandle[m.operator.ruleHandle()] = null;
            m.operator.endOfBatch();
            Map<RuleVersion, RuleMetrics> after = new LinkedHashMap<>(gone);
            after.merge(m.rule, metricsOf(m, false), RuleMetrics::plus);
            gone = Map.copyOf(after);
            versions.leave(m.operator);
            members.remove(i);
            retiredMembers--;
            changed = true;
        }
        if (changed) {
            publish();
        }
    }

    private void publish() {
        published = List.copyOf(members);
    }

    // ------------------------------------------------------------------ events and time

    @Override
    public void processElement(Object key, T event, long timestamp) {
        if (timestamp <= watermark) {
            lateEvents++;
            late.late(key, event, timestamp);
            return;
        }
        if (!keepsEveryArrival && !versions.concernsAnyVersion(event)) {
            return; // no version would be handed it: it takes no key id and no place in the buffer
        }
        buffer.buffer().add(keys.idOf(key), event, timestamp);
    }

    @Override
    public boolean beginWatermark(long newWatermark) {
        if (!advanceWatermark(newWatermark)) {
            return false;
        }
        buffer.release(newWatermark); // to the versions it concerns, by arrival; with none, keys are freed
        // only versions handed events have keys to advance, in the order the versions joined
        for (int i = 0, n = versions.sortRound(); i < n; i++) {
            CepOperator<T> op = versions.roundMember(i);
            if (op != null) {
                op.beginWatermark(newWatermark);
            }
        }
        return true;
    }

    @Override
    public void endWatermark() {
        versions.visitDue(watermark);
        // the versions handed events or with keys due: the others have nothing to do
        for (int i = 0, n = versions.sortRound(); i < n; i++) {
            CepOperator<T> op = versions.roundMember(i);
            if (op != null) {
                op.endWatermarkAt(watermark, versions.roundMemberDue(i));
            }
        }
        settleRetired();
    }

    @Override
    public void onTimer(int keyId, long namespace, long timestamp) {
        throw new IllegalStateException("event-time timer (key id " + keyId + ", time " + timestamp + ") handed to rule"
                + " set " + operatorId + ", which registers none");
    }

    @Override
    public void onProcessingTimer(int keyId, long namespace, long timestamp, long now) {
        throw new IllegalStateException("processing-time timer (key id " + keyId + ") handed to rule set "
                + operatorId + ", which registers none");
    }

    @Override
    public boolean holds(int keyId) {
        return buffer.buffer().bufferedFor(keyId) > 0 || versions.holders().any(keyId);
    }

    // ------------------------------------------------------------------ counters

    @Override
    public void endOfBatch() {
        sumVisited(true); // the others' counters, and what they published, did not change
        publishUnpublished();
        publishedLate = lateEvents;
    }

    private RuleMetrics metricsOf(Member<T> m, boolean inForce) {
        PatternMetrics p = m.operator.publishedPatternMetrics();
        return new RuleMetrics(m.rule, inForce, p.matches(), p.timeouts(), p.partialMatches(), m.discarded,
                p.rejectedPartialMatches(), p.deadLetters(), p.startedPartialMatches(), p.prunedPartialMatches(),
                p.stages());
    }

    /** @return each version's counters on this shard, the departed ones too, as of the latest batch; any thread */
    public List<RuleMetrics> publishedRuleMetrics() {
        Map<RuleVersion, RuleMetrics> out = new LinkedHashMap<>(gone);
        for (Member<T> m : published) {
            out.merge(m.rule, metricsOf(m, m.retired == null), RuleMetrics::plus);
        }
        return new ArrayList<>(out.values());
    }

    /** @return late events as of the latest batch; any thread */
    public long publishedLateEvents() {
        return publishedLate;
    }

    @Override
    public long lateEvents() {
        return lateEvents;
    }

    @Override
    public long deadLetters() {
        return total(T_DEAD) + goneSum(RuleMetrics::deadLetters);
    }

    @Override
    public long matches() {
        return total(T_MATCHES) + goneSum(RuleMetrics::matches);
    }

    @Override
    public long timeouts() {
        return total(T_TIMEOUTS) + goneSum(RuleMetrics::timeouts);
    }

    @Override
    public long rejectedPartialMatches() {
        return total(T_REJECTED) + goneSum(RuleMetrics::rejectedPartialMatches);
    }

    @Override
    public long partialMatches() {
        return total(T_PARTIAL);
    }

    @Override
    public long bufferedEvents() {
        return buffer.buffer().size();
    }

    @Override
    public long bufferedEntries() {
        return total(T_ENTRIES);
    }

    /** @return a counter summed over the versions present, up to date */
    private long total(int counter) {
        sumVisited(false);
        return totals[counter];
    }

    private long goneSum(java.util.function.ToLongFunction<RuleMetrics> counter) {
        long total = 0;
        for (RuleMetrics m : gone.values()) {
            total += counter.applyAsLong(m);
        }
        return total;
    }

    // ------------------------------------------------------------------ snapshots

    /**
     * Writes the rule set: its watermark, late count and buffer (each event with its arrival number), then each
     * version: its rule, structure fingerprint, where it sees events from and to, and its matching state as a
     * length-prefixed block, so that a restore without that version can skip it (and say what it held).
     */
    @Override
    public void writeState(DataOutput out, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        out.writeLong(watermark);
        out.writeLong(lateEvents);
        EventTimeBuffer<T> b = buffer.buffer();
        out.writeLong(b.arrivals());
        out.writeInt(b.size());
        IOException[] failure = new IOException[1];
        b.forEachInOrder((id, event, ts, arrival) -> {
            if (failure[0] == null) {
                try {
                    writeKey(out, keyCodec, id);
                    out.writeLong(ts);
                    out.writeLong(arrival);
                    events.write(event, out);
                } catch (IOException e) {
                    failure[0] = e;
                }
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
        out.writeInt(members.size());
        for (Member<T> m : members) {
            writeMember(out, m);
            out.writeLong(m.operator.partialMatches());
            out.writeInt(m.operator.liveKeys());
            ByteArrayOutputStream block = new ByteArrayOutputStream();
            try (DataOutputStream blockOut = new DataOutputStream(block)) {
                m.operator.writeState(blockOut, events, keyCodec);
            }
            out.writeInt(block.size());
            out.write(block.toByteArray());
        }
        out.writeInt(gone.size());
        for (RuleMetrics g : gone.values()) {
            out.writeUTF(g.rule().id());
            out.writeInt(g.rule().version());
            out.writeLong(g.matches());
            out.writeLong(g.timeouts());
            out.writeLong(g.discardedPartialMatches());
            out.writeLong(g.rejectedPartialMatches());
            out.writeLong(g.deadLetters());
        }
    }

    /**
     * Restores what {@link #writeState} wrote into this fresh rule set, whose versions are the ones the restored
     * engine was given: a version of the snapshot with the same id and version (and structure) gets its state back,
     * with where it sees events from; one the engine was not given is skipped and reported as dropped, as is one
     * that was being retired (the engine has no pattern for it); a version of the engine the snapshot has no state
     * for starts empty, seeing the events that arrive from now on.
     *
     * @throws IOException if a version with the same id and version has another structure than the snapshot's
     *                     (conditions cannot be compared; quantifiers, contiguity, windows and skip strategy can)
     */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec) throws IOException {
        readState(in, events, keyCodec, RestoreScope.EXACT);
        finishRestore(events, keyCodec, RestoreScope.EXACT);
    }

    /**
     * Answers a question about a key on the shard's thread: its open partial matches in every version that has some
     * (by version, in the order the versions joined the set), or a trace question for one rule's versions.
     */
    @Override
    public Object inspect(Object key, Object question) {
        if (question instanceof TraceQuestion q) {
            return trace(key, q);
        }
        if (question != PARTIAL_MATCHES) {
            throw new IllegalArgumentException("rule set " + operatorId + " does not answer " + question);
        }
        Map<RuleVersion, List<io.cepheus.nfa.PartialMatch<T>>> open = new LinkedHashMap<>();
        for (Member<T> m : members) {
            List<io.cepheus.nfa.PartialMatch<T>> partial = m.operator.partialMatches(key);
            if (!partial.isEmpty()) {
                open.put(m.rule, partial);
            }
        }
        return open;
    }

    /** Traced rules: by rule id, the keys traced and each trace's bound, applied to versions that join later too. */
    private final Map<String, Map<Object, Integer>> tracedRules = new LinkedHashMap<>();

    /**
     * Starts, reads or stops the trace of a key for every version of one rule present (in force or draining); a
     * version of a traced rule that comes into force later is traced from its start.
     *
     * @return for READ and STOP, the traces by version, in the order the versions joined; null for START
     */
    private Map<RuleVersion, io.cepheus.runtime.explain.Explanation> trace(Object key, TraceQuestion q) {
        if (q.kind() == TraceQuestion.Kind.START) {
            tracedRules.computeIfAbsent(q.ruleId(), id -> new LinkedHashMap<>()).put(key, q.capacity());
        } else if (q.kind() == TraceQuestion.Kind.STOP) {
            Map<Object, Integer> keysOfRule = tracedRules.get(q.ruleId());
            if (keysOfRule != null) {
                keysOfRule.remove(key);
                if (keysOfRule.isEmpty()) {
                    tracedRules.remove(q.ruleId());
                }
            }
        }
        Map<RuleVersion, io.cepheus.runtime.explain.Explanation> out = new LinkedHashMap<>();
        for (Member<T> m : members) {
            if (m.rule.id().equals(q.ruleId())) {
                io.cepheus.runtime.explain.Explanation x = m.operator.trace(key, q, subjectOf(m.rule));
                if (x != null) {
                    out.put(m.rule, x);
                }
            }
        }
        return q.kind() == TraceQuestion.Kind.START ? null : out;
    }

    private static String subjectOf(RuleVersion rule) {
        return "rule " + rule.id() + " v" + rule.version();
    }

    /** The parts read so far of a restore under way; null otherwise. */
    private RuleSetParts<T> parts;
    private Map<RuleVersion, long[]> droppedInParts;
    private Map<RuleVersion, RuleMetrics> goneInParts;

    /**
     * Reads one part of a snapshot (the shard's own, or one old shard's of a restore into another number of shards):
     * the buffered events of the keys {@code scope} keeps, and the versions in force with their states, are kept for
     * {@link #finishRestore}, which merges the parts ({@link RuleSetParts}); what is reported of dropped and departed
     * versions is added up on the shard that takes the snapshot's counters.
     */
    @Override
    public void readState(DataInput in, EventCodec<T> events, EventCodec<Object> keyCodec, RestoreScope scope)
            throws IOException {
        if (parts == null) {
            parts = new RuleSetParts<>();
            droppedInParts = new LinkedHashMap<>();
            goneInParts = new LinkedHashMap<>();
        }
        parts.startPart();
        watermark = in.readLong();
        lateEvents = scope.counted(lateEvents, in.readLong());
        long nextArrival = in.readLong();
        int buffered = readCount(in, "a rule set with %d buffered events");
        for (int i = 0; i < buffered; i++) {
            Object key = keyCodec.read(in);
            long ts = in.readLong();
            long arrival = in.readLong();
            if (ts <= watermark) {
                throw new IOException("key " + key + " has an event at time " + ts + " waiting for the watermark,"
                        + " which is already at " + watermark);
            }
            if (arrival < 0 || arrival >= nextArrival) {
                throw new IOException("a buffered event has arrival number " + arrival + ", not below the rule set's"
                        + " next one, " + nextArrival);
            }
            T event = events.read(in);
            if (scope.keeps(key)) {
                parts.buffered(key, ts, arrival, event);
            }
        }
        Map<RuleVersion, Member<T>> running = new LinkedHashMap<>();
        for (Member<T> m : members) {
            running.put(m.rule, m);
        }
        int count = readCount(in, "a rule set with %d rule versions");
        for (int i = 0; i < count; i++) {
            MemberHeader h = MemberHeader.read(in);
            RuleVersion rule = h.rule();
            long fingerprint = h.fingerprint();
            int retired = h.retired();
            long firstArrival = h.firstArrival();
            long retiredAt = h.retiredAt();
            long pendingBefore = h.pendingBefore();
            long discarded = h.discarded();
            long partialMatches = in.readLong();
            int liveKeys = in.readInt();
            int length = readCount(in, "a rule version's state of %d bytes");
            byte[] block = new byte[length];
            in.readFully(block);
            Member<T> m = retired == 0 ? running.get(rule) : null;
            if (m == null) {
                if (scope.countsHere()) {
                    long[] held = droppedInParts.computeIfAbsent(rule, r -> new long[2]);
                    held[0] += partialMatches;
                    held[1] += liveKeys;
                }
                continue;
            }
            if (m.pattern.structureFingerprint() != fingerprint) {
                throw new IOException("rule " + rule + " has another structure in this engine than in the snapshot"
                        + " (quantifiers, contiguity, windows or skip strategy differ): its state cannot be restored;"
                        + " give the changed rule a new version");
            }
            if (firstArrival < 0 || firstArrival > nextArrival || retiredAt != Long.MAX_VALUE || pendingBefore != 0) {
                throw new IOException("rule " + rule + " in force sees events from arrival " + firstArrival
                        + " (next: " + nextArrival + "), retired at " + retiredAt);
            }
            m.discarded = scope.counted(m.discarded, discarded);
            parts.version(rule, firstArrival, block);
        }
        int goneCount = readCount(in, "a rule set with %d departed versions");
        for (int i = 0; i < goneCount; i++) {
            RuleVersion rule = new RuleVersion(in.readUTF(), in.readInt());
            RuleMetrics g = new RuleMetrics(rule, false, in.readLong(), in.readLong(), 0, in.readLong(),
                    in.readLong(), in.readLong(), 0, 0, List.of()); // (the snapshot keeps no stage counters)
            if (scope.countsHere()) {
                goneInParts.merge(rule, g, RuleMetrics::plus);
            }
        }
    }

    /**
     * Merges the parts read by {@link #readState(DataInput, EventCodec, EventCodec, RestoreScope)}: the kept events
     * go back into the buffer under new arrival numbers, each kept version sees from its new first arrival and reads
     * its state from every part, and versions of this engine the snapshot did not have start empty.
     */
    @Override
    public void finishRestore(EventCodec<T> events, EventCodec<Object> keyCodec, RestoreScope scope)
            throws IOException {
        if (parts == null) {
            return;
        }
        List<RuleVersion> keptOrder = parts.keptVersions();
        long[] firstArrival = new long[keptOrder.size()];
        List<RuleSetParts.Renumbered<T>> renumbered = parts.renumber(keptOrder, firstArrival);
        EventTimeBuffer<T> b = buffer.buffer();
        for (RuleSetParts.Renumbered<T> e : renumbered) {
            b.add(keys.idOf(e.key()), e.event(), e.timestamp(), e.arrival());
        }
        long nextArrival = renumbered.size();
        b.arrivals(nextArrival);
        Map<RuleVersion, Member<T>> fresh = new LinkedHashMap<>();
        for (Member<T> m : members) {
            fresh.put(m.rule, m);
        }
        List<RuleVersion> kept = new ArrayList<>();
        for (int i = 0; i < keptOrder.size(); i++) {
            Member<T> m = fresh.remove(keptOrder.get(i));
            versions.leave(m.operator);
            m.operator.ruleVersionOf(buffer, firstArrival[i]);
            indexByHandle(m);
            for (byte[] state : parts.statesOf(m.rule)) {
                m.operator.readState(new DataInputStream(new ByteArrayInputStream(state)), events, keyCodec, scope);
            }
            versions.touchedOutsideRound(m.operator);
            kept.add(m.rule);
        }
        List<RuleVersion> startedEmpty = new ArrayList<>();
        for (Member<T> m : fresh.values()) {
            versions.leave(m.operator);
            m.operator.ruleVersionOf(buffer, nextArrival); // sees what arrives after the restore
            indexByHandle(m);
            startedEmpty.add(m.rule);
        }
        List<RestoredRules.Dropped> dropped = new ArrayList<>();
        droppedInParts.forEach((rule, held) -> dropped.add(new RestoredRules.Dropped(rule, held[0], held[1])));
        gone = Map.copyOf(goneInParts);
        parts = null;
        droppedInParts = null;
        goneInParts = null;
        publish();
        spec.restored(new RestoredRules(kept, startedEmpty, dropped));
    }

    // ------------------------------------------------------------------ a host that keeps each key's state

    /**
     * Applies a change at this point of the input, for a host that drives the rule set itself (a Kafka Streams task):
     * as a control record does in the engine.
     *
     * @param added   the version put in force, or null
     * @param pattern its pattern, or null
     * @param retired the version retired (it must be in force), or null
     * @param policy  how the retired version ends
     */
    public void apply(RuleVersion added, CompiledPattern<T> pattern, RuleVersion retired, RetirePolicy policy) {
        RuleChange.Kind kind = added == null ? RuleChange.Kind.REMOVED
                : retired == null ? RuleChange.Kind.ADDED : RuleChange.Kind.REPLACED;
        onControl(new RuleCommand<>(kind, added, pattern, retired, policy, 1, true),
                new RuleChange.ShardCut(0, 0, watermark, List.of(), List.of()));
    }

    /** @return the versions present, in force or being retired, in the order they joined */
    public List<RuleVersion> presentVersions() {
        return versions();
    }

    /** @return the versions in force (not being retired), in the order they joined */
    public List<RuleVersion> inForce() {
        List<RuleVersion> out = new ArrayList<>();
        for (Member<T> m : members) {
            if (m.retired == null) {
                out.add(m.rule);
            }
        }
        return out;
    }

    /**
     * Writes the part of the rule set's state that names no key: its watermark, late count, next arrival number, and
     * each version present with where it sees events from and to and its counters. The buffered events and the keys'
     * states are kept by the host ({@link #writeKeyState}).
     */
    public void writeHeader(DataOutput out) throws IOException {
        out.writeLong(watermark);
        out.writeLong(lateEvents);
        out.writeLong(buffer.buffer().arrivals());
        out.writeInt(members.size());
        for (Member<T> m : members) {
            writeMember(out, m);
            m.operator.writeHeader(out);
        }
    }

    /** What {@link #writeMember} wrote of a version. */
    private record MemberHeader(RuleVersion rule, long fingerprint, int retired, long firstArrival, long retiredAt,
            long pendingBefore, long discarded) {
        static MemberHeader read(DataInput in) throws IOException {
            return new MemberHeader(new RuleVersion(in.readUTF(), in.readInt()), in.readLong(), in.readByte(),
                    in.readLong(), in.readLong(), in.readLong(), in.readLong());
        }
    }

    /**
     * Writes what names a version and says where it sees events from and to: its rule, structure fingerprint, how it
     * is retired (0 in force, 1 draining, 2 discarded), first arrival, retirement arrival, the events that arrived
     * before it and are still buffered, and its discarded partial matches.
     */
    private void writeMember(DataOutput out, Member<T> m) throws IOException {
        out.writeUTF(m.rule.id());
        out.writeInt(m.rule.version());
        out.writeLong(m.pattern.structureFingerprint());
        out.writeByte(m.retired == null ? 0 : m.retired == RetirePolicy.DRAIN ? 1 : 2);
        out.writeLong(versions.firstArrival(m.operator));
        out.writeLong(versions.retiredAt(m.operator));
        out.writeLong(versions.pendingBefore(m.operator));
        out.writeLong(m.discarded);
    }

    /**
     * Restores what {@link #writeHeader} wrote into this rule set, made without versions: each version present
     * joins again where it saw events from (and, being retired, is retired again as it was), with the pattern
     * {@code patterns} gives for it.
     *
     * @throws IOException if {@code patterns} has no pattern for a version, or one of another structure
     */
    public void readHeader(DataInput in, java.util.function.Function<RuleVersion, CompiledPattern<T>> patterns)
            throws IOException {
        if (!members.isEmpty()) {
            throw new IllegalStateException("rule set " + operatorId + " restores its header only while it has no"
                    + " version");
        }
        watermark = in.readLong();
        lateEvents = in.readLong();
        long nextArrival = in.readLong();
        int count = readCount(in, "a rule set with %d rule versions");
        for (int i = 0; i < count; i++) {
            MemberHeader h = MemberHeader.read(in);
            RuleVersion rule = h.rule();
            long firstArrival = h.firstArrival();
            int retired = h.retired();
            CompiledPattern<T> pattern = patterns.apply(rule);
            if (pattern == null) {
                throw new IOException("no pattern for rule " + rule + ", which the state holds");
            }
            if (pattern.structureFingerprint() != h.fingerprint()) {
                throw new IOException("rule " + rule + " has another structure than when its state was written");
            }
            if (firstArrival < 0 || firstArrival > nextArrival || retired < 0 || retired > 2) {
                throw new IOException("rule " + rule + " sees events from arrival " + firstArrival + " (next: "
                        + nextArrival + "), retired as " + retired);
            }
            Member<T> m = join(rule, pattern, firstArrival);
            m.discarded = h.discarded();
            m.operator.readHeader(in, RestoreScope.EXACT);
            if (retired != 0) {
                m.retired = retired == 1 ? RetirePolicy.DRAIN : RetirePolicy.DISCARD;
                retiredMembers++;
                versions.retire(m.operator, retired == 1, h.retiredAt(), h.pendingBefore());
            }
        }
        buffer.buffer().arrivals(nextArrival);
        publish();
    }

    /**
     * Writes the matching state of one key in every version present: how many versions hold some, then each one's
     * rule and state.
     */
    public void writeKeyState(int keyId, DataOutput out, EventCodec<T> events) throws IOException {
        int holding = 0;
        for (Member<T> m : members) {
            holding += m.operator.hasState(keyId) ? 1 : 0;
        }
        out.writeInt(holding);
        for (Member<T> m : members) {
            if (m.operator.hasState(keyId)) {
                out.writeUTF(m.rule.id());
                out.writeInt(m.rule.version());
                m.operator.writeKeyState(keyId, out, events);
            }
        }
    }

    /** @return whether some version holds matching state for the key */
    public boolean holdsState(int keyId) {
        for (Member<T> m : members) {
            if (m.operator.hasState(keyId)) {
                return true;
            }
        }
        return false;
    }

    /** Restores what {@link #writeKeyState} wrote, after {@link #readHeader}. */
    public void readKeyState(Object key, DataInput in, EventCodec<T> events) throws IOException {
        int holding = readCount(in, "a key held by %d rule versions");
        for (int i = 0; i < holding; i++) {
            RuleVersion rule = new RuleVersion(in.readUTF(), in.readInt());
            Member<T> m = null;
            for (Member<T> candidate : members) {
                if (candidate.rule.equals(rule)) {
                    m = candidate;
                }
            }
            if (m == null) {
                throw new IOException("key " + key + " has state in rule " + rule + ", which the state's header does"
                        + " not name");
            }
            m.operator.readKeyState(key, in, events);
        }
    }

    /** Puts back a buffered event under its arrival number (a restore, in arrival order, after the keys). */
    public void restoreBuffered(int keyId, T event, long timestamp, long arrival) {
        buffer.restore(keyId, event, timestamp, arrival);
    }

    /** Completes a restore: the restored keys are settled in every version. */
    public void settleRestored() {
        for (Member<T> m : members) {
            m.operator.settleRestored();
            versions.touchedOutsideRound(m.operator);
        }
    }

    /** @return the versions on this shard, in force first (for tests) */
    List<RuleVersion> versions() {
        List<RuleVersion> out = new ArrayList<>();
        for (Member<T> m : members) {
            out.add(m.rule);
        }
        return out;
    }
}

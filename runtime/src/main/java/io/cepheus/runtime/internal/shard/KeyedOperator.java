package io.cepheus.runtime.internal.shard;

import io.cepheus.nfa.EventCodec;
import io.cepheus.runtime.internal.timer.TimerService;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;

/**
 * What every keyed operator of a shard has in common: its id (its position on the shard, and the operator part of
 * its timers' namespaces), the shard's key dictionary and how it gives back a key it no longer needs, the watermark
 * it has processed, its dead-letter count, and the pieces of its snapshot that name keys.
 *
 * <p>Owned by the shard's thread, like everything on the shard.
 *
 * @param <T> the event type
 */
public abstract class KeyedOperator<T> implements ShardOperator<T> {

    /** The operator's position on the shard, also the operator part of its timers' namespaces. */
    protected final int operatorId;
    /** The shard's key dictionary, shared with its other operators. */
    protected final KeyDictionary keys;
    /** How a key this operator holds nothing more for is given back. */
    protected KeyRelease keyRelease;
    /** The latest watermark this operator processed. */
    protected long watermark = Long.MIN_VALUE;
    /** Inputs a user function threw on, sent to the dead letters (or the error handler). */
    protected long deadLetters;
    /** Told of every key whose state this operator changes; null unless a host keeps the keys' state elsewhere. */
    protected KeyChanges keyChanges;

    /**
     * @param operatorId the operator's id on the shard
     * @param keys       the shard's key dictionary
     * @param timers     the shard's timer service: alone on its shard (until the shard sets its own release), the
     *                   operator forgets a key once no timer is pending for it
     */
    protected KeyedOperator(int operatorId, KeyDictionary keys, TimerService timers) {
        this.operatorId = operatorId;
        this.keys = keys;
        this.keyRelease = KeyRelease.unlessTimersPending(keys, timers);
    }

    @Override
    public final int operatorId() {
        return operatorId;
    }

    /**
     * Replaces how idle keys are released: a shard with several operators releases a key id only when none of them
     * holds anything for it. Setup, before events flow.
     */
    @Override
    public final void keyRelease(KeyRelease release) {
        this.keyRelease = Objects.requireNonNull(release, "release");
    }

    /**
     * Makes this operator report every key whose state it changes (setup, before events flow): for a host that keeps
     * each key's state as it changes ({@link KeyChanges}).
     */
    public final void keyChanges(KeyChanges changes) {
        this.keyChanges = Objects.requireNonNull(changes, "changes");
    }

    @Override
    public long deadLetters() {
        return deadLetters;
    }

    /** @return whether {@code newWatermark} moves this operator on (and then it is the operator's watermark) */
    protected final boolean advanceWatermark(long newWatermark) {
        if (newWatermark <= watermark) {
            return false;
        }
        watermark = newWatermark;
        return true;
    }

    /** @return how many key ids below {@code bound} this operator holds something for */
    protected final int keysHeldBelow(int bound) {
        int live = 0;
        for (int id = 0; id < bound; id++) {
            live += holds(id) ? 1 : 0;
        }
        return live;
    }

    /** Writes the key of {@code keyId}, for a snapshot (the key, not the id: a restored shard may renumber). */
    protected final void writeKey(DataOutput out, EventCodec<Object> keyCodec, int keyId) throws IOException {
        keyCodec.write(keys.keyOf(keyId), out);
    }

    /**
     * Reads a count that {@link #writeState} wrote ({@link SnapshotReads#count}).
     *
     * @param what what is counted, for the message (e.g. "an interval join with %d keys")
     * @throws IOException if it is negative, or more than the bytes left could hold
     */
    protected static int readCount(DataInput in, String what) throws IOException {
        return SnapshotReads.count(in, what);
    }

    /** Reads a key {@link #writeKey} wrote. @return its id in the (restored) dictionary */
    protected final int readKeyId(DataInput in, EventCodec<Object> keyCodec) throws IOException {
        return keys.idOf(keyCodec.read(in));
    }

    /**
     * Reads a key {@link #writeKey} wrote, as {@link #readKey}, in a restore that keeps only the keys {@code scope}
     * keeps (see {@link RestoreScope}).
     *
     * @return its id, or -1 if the key is another shard's: its state is then read and let go
     */
    protected final int readKeptKey(DataInput in, EventCodec<Object> keyCodec, RestoreScope scope, String state)
            throws IOException {
        Object key = keyCodec.read(in);
        if (!scope.keeps(key)) {
            return -1;
        }
        int id = keys.idOf(key);
        if (holds(id)) {
            throw new IOException("key " + key + " appears twice in " + state);
        }
        return id;
    }

    /**
     * Reads a key {@link #writeKey} wrote, as {@link #readKeyId}, for an operator whose state of a key is read in
     * one piece.
     *
     * @param state what the key's state belongs to, for the message (e.g. "the interval join's state")
     * @throws IOException if this operator already holds something for the key: it appears twice
     */
    protected final int readKey(DataInput in, EventCodec<Object> keyCodec, String state) throws IOException {
        int id = readKeyId(in, keyCodec);
        if (holds(id)) {
            throw new IOException("key " + keys.keyOf(id) + " appears twice in " + state);
        }
        return id;
    }
}

package io.cepheus.runtime.internal.cep;

import io.cepheus.nfa.CompiledPattern;
import io.cepheus.runtime.rules.RetirePolicy;
import io.cepheus.runtime.rules.RuleChange;
import io.cepheus.runtime.rules.RuleVersion;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One change of a rule set, as it travels to every shard: the version it puts in force (or none), the id whose
 * version it retires (or none) and how, and the future the caller waits on, completed once every shard applied it.
 * Shards apply it on their own threads; the last one completes the future, on another thread so that what the
 * caller chains to it never runs on a shard (but on the caller's own thread under a test harness, which has no other).
 *
 * @param <T> the event type
 */
public final class RuleCommand<T> {

    final RuleChange.Kind kind;
    /** The version put in force, or null. */
    final RuleVersion added;
    final CompiledPattern<T> pattern;
    /** The version retired, or null. */
    final RuleVersion retired;
    final RetirePolicy policy;
    /** Each shard's cut, written by that shard before it counts itself off {@link #missing}. */
    private final RuleChange.ShardCut[] cuts;
    /** Shards yet to apply it; {@link #FAILED} once the engine stopped first. */
    private final AtomicInteger missing;
    /** Far enough below zero that the shards still counting off never bring it back to zero. */
    private static final int FAILED = Integer.MIN_VALUE / 2;
    private final CompletableFuture<RuleChange> done = new CompletableFuture<>();
    private final boolean completeInline;

    /**
     * @param kind           what kind of change
     * @param added          the version put in force, or null
     * @param pattern        its pattern, or null
     * @param retired        the version retired, or null
     * @param policy         how the retired version ends (ignored without one)
     * @param shards         how many shards must apply it
     * @param completeInline complete the future on the shard's thread (a test harness's caller)
     */
    public RuleCommand(RuleChange.Kind kind, RuleVersion added, CompiledPattern<T> pattern, RuleVersion retired,
            RetirePolicy policy, int shards, boolean completeInline) {
        this.kind = kind;
        this.added = added;
        this.pattern = pattern;
        this.retired = retired;
        this.policy = retired == null ? null : policy;
        this.cuts = new RuleChange.ShardCut[shards];
        this.missing = new AtomicInteger(shards);
        this.completeInline = completeInline;
    }

    /** @return completed with the change once every shard applied it */
    public CompletableFuture<RuleChange> future() {
        return done;
    }

    /**
     * A shard applied the change there (on its thread). No lock: each shard writes its own cut, then counts itself
     * off; the one that counts down to zero has seen every cut (each write happens before its decrement).
     */
    void applied(RuleChange.ShardCut cut) {
        cuts[cut.shard()] = cut;
        if (missing.decrementAndGet() == 0) {
            RuleChange change = new RuleChange(kind, added, retired, policy, Arrays.asList(cuts));
            if (completeInline) {
                done.complete(change);
            } else {
                ForkJoinPool.commonPool().execute(() -> done.complete(change));
            }
        }
    }

    /** @return the change as it stood before the engine started: applied to no shard yet, it starts with them */
    public RuleChange beforeStart() {
        return new RuleChange(kind, added, retired, policy, List.of());
    }

    /** The engine stopped: if some shard never applied the change, it never will. */
    public void failed(Throwable why) {
        // at zero it was applied everywhere (the future is completing), below zero it failed already
        for (int m = missing.get(); m > 0; m = missing.get()) {
            if (missing.compareAndSet(m, FAILED)) {
                done.completeExceptionally(why);
                return;
            }
        }
    }
}

package io.cepheus.runtime.rules;

import java.util.List;

/**
 * A change of a rule set, once every shard applied it: what changed, and where in the input. The change took effect
 * at one point of every producer's input ({@link #eventsBefore(int)}): its events sent before are matched by the
 * rule set before the change, those sent after by the rule set after it, on every shard.
 *
 * @param kind    what kind of change
 * @param added   the version now in force, or null for a removal
 * @param retired the version replaced or removed, or null for an addition
 * @param policy  what happens to the retired version's partial matches (null when none is retired)
 * @param cuts    where each shard applied it, in shard order (empty for a change made before the engine started)
 */
public record RuleChange(Kind kind, RuleVersion added, RuleVersion retired, RetirePolicy policy, List<ShardCut> cuts) {

    /**
     * Copies the cuts.
     *
     * @param kind    what kind of change
     * @param added   the version now in force, or null for a removal
     * @param retired the version replaced or removed, or null for an addition
     * @param policy  what happens to the retired version's partial matches (null when none is retired)
     * @param cuts    where each shard applied it, in shard order (empty for a change made before the engine started)
     */
    public RuleChange {
        cuts = List.copyOf(cuts);
    }

    /** What kind of change. */
    public enum Kind {
        /** A rule that was not in force is. */
        ADDED,
        /** A higher version of a rule replaced the one in force. */
        REPLACED,
        /** A rule is no longer in force. */
        REMOVED
    }

    /**
     * Where one shard applied a change.
     *
     * @param shard            the shard
     * @param events           events it had received before the change
     * @param watermark        its watermark then
     * @param eventsByProducer     of those, how many each producer sent (by producer, in the order the producers
     *                             were created)
     * @param watermarksByProducer the latest watermark each producer had sent it ({@code Long.MIN_VALUE}: none)
     */
    public record ShardCut(int shard, long events, long watermark, List<Long> eventsByProducer,
            List<Long> watermarksByProducer) {
        /**
         * Copies the lists.
         *
         * @param shard                the shard
         * @param events               events it had received before the change
         * @param watermark            its watermark then
         * @param eventsByProducer     of those, how many each producer sent
         * @param watermarksByProducer the latest watermark each producer had sent it
         */
        public ShardCut {
            eventsByProducer = List.copyOf(eventsByProducer);
            watermarksByProducer = List.copyOf(watermarksByProducer);
        }
    }

    /**
     * @param producer a producer's index: the order in which {@code newProducer()} created it, from 0
     * @return how many events that producer had sent, to all shards, before the change took effect: its events
     *         from this position on were matched by the changed rule set
     */
    public long eventsBefore(int producer) {
        return sum(producer);
    }

    /**
     * @param producer a producer's index, as for {@link #eventsBefore(int)}
     * @return the latest watermark that producer had sent before the change took effect (the same on every shard:
     *         watermarks are cut at the change as events are)
     */
    public long watermarkBefore(int producer) {
        long w = Long.MIN_VALUE;
        for (ShardCut c : cuts) {
            if (producer < c.watermarksByProducer().size()) {
                w = Math.max(w, c.watermarksByProducer().get(producer));
            }
        }
        return w;
    }

    private long sum(int producer) {
        long sum = 0;
        for (ShardCut c : cuts) {
            if (producer < c.eventsByProducer().size()) {
                sum += c.eventsByProducer().get(producer);
            }
        }
        return sum;
    }
}

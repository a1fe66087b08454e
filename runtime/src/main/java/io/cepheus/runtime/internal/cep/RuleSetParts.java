package io.cepheus.runtime.internal.cep;

import io.cepheus.runtime.rules.RuleVersion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule set's state as the snapshot parts of several old shards hold it, merged for one shard of an engine with
 * another number of shards (rescaling).
 *
 * <p>Each old shard numbers its buffered events by arrival, and a rule version in force sees exactly the events
 * whose arrival number is at least its first one. Rule changes reach every shard at one point of every producer's
 * input, so every part has the same versions in force, in the same order of first arrival. The merge gives each
 * event an <em>epoch</em>, the number of versions that see it in its own part, and renumbers the events of all parts
 * in the order (epoch, part, arrival): a version's new first arrival is then the number of events of lower epochs, so
 * every version sees exactly the events it saw before, and each key's events (all in one part) keep their order.
 *
 * <p>Owned by the restoring shard's thread, for the length of a restore.
 *
 * @param <T> the event type
 */
final class RuleSetParts<T> {

    /** A buffered event of a kept key, as a part wrote it. */
    record Buffered<T>(Object key, long timestamp, long arrival, T event, int part) {
    }

    /** An event with its new arrival number, in the order the rule set's buffer releases them. */
    record Renumbered<T>(Object key, long timestamp, long arrival, T event) {
    }

    /** A version in force in one part: where it began, and its pattern operator's state there. */
    record VersionPart(long firstArrival, byte[] state) {
    }

    private final List<List<Buffered<T>>> events = new ArrayList<>();
    private final List<Map<RuleVersion, VersionPart>> versions = new ArrayList<>();

    /** Starts the next part. */
    void startPart() {
        events.add(new ArrayList<>());
        versions.add(new LinkedHashMap<>());
    }

    /** A buffered event of a key this shard keeps, in the current part. */
    void buffered(Object key, long timestamp, long arrival, T event) {
        events.get(events.size() - 1).add(new Buffered<>(key, timestamp, arrival, event, events.size() - 1));
    }

    /** A version in force in the current part, which this engine runs too. */
    void version(RuleVersion rule, long firstArrival, byte[] state) {
        versions.get(versions.size() - 1).put(rule, new VersionPart(firstArrival, state));
    }

    /** @return the kept versions, in the order of their first arrival */
    List<RuleVersion> keptVersions() throws IOException {
        Map<RuleVersion, VersionPart> first = versions.get(0);
        for (int p = 1; p < versions.size(); p++) {
            if (!versions.get(p).keySet().equals(first.keySet())) {
                throw new IOException("the snapshot's shards have different rule versions in force (shard 0: "
                        + first.keySet() + ", shard " + p + ": " + versions.get(p).keySet() + ")");
            }
        }
        List<RuleVersion> kept = new ArrayList<>(first.keySet());
        kept.sort(Comparator.comparingLong(rule -> first.get(rule).firstArrival()));
        for (int p = 0; p < versions.size(); p++) {
            long previous = Long.MIN_VALUE;
            for (RuleVersion rule : kept) {
                long fa = versions.get(p).get(rule).firstArrival();
                if (fa < previous) {
                    throw new IOException("the rule versions of the snapshot's shard " + p + " came into force in"
                            + " another order than on shard 0");
                }
                previous = fa;
            }
        }
        return kept;
    }

    /** @return each part's state of {@code rule}, in part order */
    List<byte[]> statesOf(RuleVersion rule) {
        List<byte[]> states = new ArrayList<>();
        for (Map<RuleVersion, VersionPart> part : versions) {
            states.add(part.get(rule).state());
        }
        return states;
    }

    /**
     * Renumbers the buffered events of every part.
     *
     * @param kept         the kept versions, as {@link #keptVersions()} orders them
     * @param firstArrival receives each kept version's new first arrival, in that order
     * @return the events with their new numbers, in release order (time, then arrival)
     */
    List<Renumbered<T>> renumber(List<RuleVersion> kept, long[] firstArrival) {
        List<long[]> starts = new ArrayList<>();
        for (Map<RuleVersion, VersionPart> part : versions) {
            long[] fa = new long[kept.size()];
            for (int i = 0; i < fa.length; i++) {
                fa[i] = part.get(kept.get(i)).firstArrival();
            }
            starts.add(fa);
        }
        List<Buffered<T>> all = new ArrayList<>();
        events.forEach(all::addAll);
        int[] epoch = new int[all.size()];
        Integer[] order = new Integer[all.size()]; // a restore, once: boxing is no concern here
        for (int e = 0; e < all.size(); e++) {
            Buffered<T> b = all.get(e);
            epoch[e] = versionsSeeing(starts.get(b.part()), b.arrival());
            order[e] = e;
        }
        Arrays.sort(order, Comparator.<Integer>comparingInt(e -> epoch[e]).thenComparingInt(e -> all.get(e).part())
                .thenComparingLong(e -> all.get(e).arrival()));
        for (int i = 0; i < firstArrival.length; i++) {
            long lower = 0;
            for (int e : epoch) {
                lower += e <= i ? 1 : 0;
            }
            firstArrival[i] = lower; // version i sees the events of epoch i + 1 and above
        }
        List<Renumbered<T>> renumbered = new ArrayList<>(all.size());
        for (int n = 0; n < order.length; n++) {
            Buffered<T> b = all.get(order[n]);
            renumbered.add(new Renumbered<>(b.key(), b.timestamp(), n, b.event()));
        }
        renumbered.sort(Comparator.<Renumbered<T>>comparingLong(Renumbered::timestamp)
                .thenComparingLong(Renumbered::arrival));
        return renumbered;
    }

    /** @return how many versions, whose first arrivals are {@code starts} (ascending), see an event of {@code arrival} */
    private static int versionsSeeing(long[] starts, long arrival) {
        int seeing = 0;
        while (seeing < starts.length && starts[seeing] <= arrival) {
            seeing++;
        }
        return seeing;
    }
}

package io.cepheus.nfa;

/**
 * What one stage of a pattern has seen, counted since its matcher was created ({@link NfaMatcher#stageCounters()}).
 * Together they show where partial matches stop: a stage that is tested often and takes little is where a pattern
 * fails to match.
 *
 * @param stage    the stage's name
 * @param tested   how many times an event was tested at the stage: once per partial match waiting there, and for the
 *                 first stage once per event as well (an event that cannot begin a partial match is counted too)
 * @param taken    events the stage took
 * @param rejected partial matches waiting at the stage that an event ended: it fulfilled none of the conditions they
 *                 waited for and they could not skip it (strict contiguity), or a NOT stage saw it
 * @param timedOut partial matches that timed out waiting at the stage
 */
public record StageCounters(String stage, long tested, long taken, long rejected, long timedOut) {

    /**
     * @param other the same stage's counters elsewhere (another shard)
     * @return the sums of both
     */
    public StageCounters plus(StageCounters other) {
        return new StageCounters(stage, tested + other.tested, taken + other.taken, rejected + other.rejected,
                timedOut + other.timedOut);
    }
}

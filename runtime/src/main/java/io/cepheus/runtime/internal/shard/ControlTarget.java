package io.cepheus.runtime.internal.shard;

import io.cepheus.runtime.rules.RuleChange;

/**
 * An operator that takes control records while it runs (a rule set): the shard hands it each one addressed to it,
 * at the record's point of the input.
 */
public interface ControlTarget {
    /**
     * @param command what to apply
     * @param cut     where the shard is: events received so far (in all and per producer), its watermark
     */
    void onControl(Object command, RuleChange.ShardCut cut);
}

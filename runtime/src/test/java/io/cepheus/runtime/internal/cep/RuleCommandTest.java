package io.cepheus.runtime.internal.cep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.rules.RetirePolicy;
import io.cepheus.runtime.rules.RuleChange;
import io.cepheus.runtime.rules.RuleVersion;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A change's future: completed by the last shard to apply it, or failed when the engine stops first, never both. */
class RuleCommandTest {

    private static RuleCommand<Object> removal(int shards) {
        return new RuleCommand<>(RuleChange.Kind.REMOVED, null, null, new RuleVersion("r", 1), RetirePolicy.DRAIN,
                shards, true);
    }

    private static RuleChange.ShardCut cut(int shard) {
        return new RuleChange.ShardCut(shard, 10 + shard, 5, List.of(10L + shard), List.of(5L));
    }

    @Test
    void theLastShardCompletesItWithEveryShardsCut() {
        RuleCommand<Object> c = removal(3);
        c.applied(cut(2));
        c.applied(cut(0));
        assertFalse(c.future().isDone());
        c.applied(cut(1));
        assertEquals(List.of(cut(0), cut(1), cut(2)), c.future().join().cuts());
        c.failed(new IllegalStateException("stopped")); // too late: it was applied everywhere
        assertFalse(c.future().isCompletedExceptionally());
    }

    @Test
    void anEngineThatStopsFirstFailsItAndLaterShardsChangeNothing() {
        RuleCommand<Object> c = removal(2);
        c.applied(cut(0));
        c.failed(new IllegalStateException("stopped"));
        assertTrue(c.future().isCompletedExceptionally());
        c.applied(cut(1));
        c.failed(new IllegalStateException("stopped again"));
        assertTrue(c.future().isCompletedExceptionally());
    }
}

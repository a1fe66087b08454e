package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.RunResult;
import java.io.Serializable;

/**
 * Counts interval-join pairs and folds each into an order-independent checksum (a wrapping sum of a 64-bit hash of
 * the order's id and the paid order's id): two engines agree only if they emit the same set of pairs.
 *
 * <p>Owned by the thread that drives the engine. Serializable only because Flink checks that the join function
 * holding it is.
 */
final class JoinTally implements Serializable {

    private static final long serialVersionUID = 1L;

    private long pairs;
    private long ownPayment;
    private long checksum;

    /**
     * @param order   the order's id
     * @param paidFor the id of the order the payment pays
     */
    void pair(long order, long paidFor) {
        pairs++;
        if (order == paidFor) {
            ownPayment++;
        }
        checksum += WindowTally.mix(WindowTally.mix(order) ^ paidFor);
    }

    /** @return pairs, pairs of an order with its own payment, checksum */
    RunResult result() {
        return new RunResult(pairs, ownPayment, checksum);
    }
}

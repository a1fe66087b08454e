package io.cepheus.benchmarks.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.benchmarks.workloads.RunResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The guard of the interval-join row: on the first 40,000 elements of the benchmark's orders and payments (about
 * half an hour of event time, so R = 5 minutes passes many times), Cepheus's engine and Flink's real
 * {@code IntervalJoinOperator} emit the same pairs, and both equal a nested-loop reference: every order with every
 * payment of its customer timed in {@code [order.ts, order.ts + R]}.
 */
class FlinkIntervalJoinTranslationTest {

    @Test
    void cepheusAndFlinkEmitTheReferencePairs() throws Exception {
        JoinInput input = JoinInput.generate(JoinInput.ORDERS, JoinInput.DEFAULT_SEED).prefix(40_000);

        RunResult cepheus = runOnce(new CepheusIntervalJoinContender(input));
        RunResult flink = runOnce(new FlinkIntervalJoinContender(input));
        RunResult reference = reference(input);

        assertTrue(reference.timeouts() >= 10_000, "too few own-payment pairs: " + reference);
        assertTrue(reference.matches() - reference.timeouts() >= 1_000,
                "too few pairs of an order with another order's payment: " + reference);
        assertEquals(reference, cepheus, "Cepheus vs the nested-loop reference");
        assertEquals(reference, flink, "Flink vs the nested-loop reference");
    }

    @Test
    void theGeneratorFollowsTheStudy() {
        JoinInput input = JoinInput.generate(100_000, 3);
        long orders = 0;
        long late = 0;
        long previous = Long.MIN_VALUE;
        Map<Long, Long> orderTime = new HashMap<>();
        for (JoinEvent e : input.elements()) {
            assertTrue(e.ts() >= previous, "arrival order is time order");
            previous = e.ts();
            if (e instanceof JoinEvent.Order o) {
                orders++;
                orderTime.put(o.id(), o.ts());
            } else {
                JoinEvent.Payment p = (JoinEvent.Payment) e;
                long delay = p.ts() - orderTime.get(p.orderId()); // its order came first
                late += delay >= 600_000 ? 1 : 0;
            }
        }
        long payments = input.elements().length - orders;
        assertEquals(100_000, orders);
        assertTrue(Math.abs(payments - 90_000) < 1_000, payments + " payments");
        assertTrue(late > 0.04 * payments && late < 0.06 * payments, late + " of " + payments + " paid late");
    }

    private static RunResult reference(JoinInput input) {
        Map<Integer, List<JoinEvent.Payment>> payments = new HashMap<>();
        List<JoinEvent.Order> orders = new ArrayList<>();
        for (JoinEvent e : input.elements()) {
            if (e instanceof JoinEvent.Order o) {
                orders.add(o);
            } else {
                payments.computeIfAbsent(e.key(), k -> new ArrayList<>()).add((JoinEvent.Payment) e);
            }
        }
        JoinTally tally = new JoinTally();
        for (JoinEvent.Order o : orders) {
            for (JoinEvent.Payment p : payments.getOrDefault(o.key(), List.of())) {
                if (p.ts() >= o.ts() && p.ts() <= o.ts() + JoinInput.R_MS) {
                    tally.pair(o.id(), p.orderId());
                }
            }
        }
        return tally.result();
    }

    private static RunResult runOnce(Contender contender) throws Exception {
        try (Trial trial = contender.prepare()) {
            return trial.feed();
        }
    }
}

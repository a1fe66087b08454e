package io.cepheus.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.CepTestHarness;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.UserCodeException;
import io.cepheus.runtime.agent.ErrorAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A join function or late handler that throws: reported to the error handler, and the join goes on. */
class JoinUserFailuresTest {

    sealed interface Ev permits Order, Payment {
        String id();
    }

    record Order(String id, long ts) implements Ev {
    }

    record Payment(String id, long ts) implements Ev {
    }

    @Test
    void aThrowingJoinFunctionAndLateHandlerAreReportedAndTheOtherPairsStillJoin() {
        List<Throwable> errors = new ArrayList<>();
        CepEngine<Ev> engine = CepEngine.<Ev>builder().shards(1)
                .errorHandler((role, error) -> {
                    errors.add(error);
                    return ErrorAction.CONTINUE;
                }).build();
        List<String> out = new ArrayList<>();
        engine.keyBy(Ev::id).intervalJoin(Order.class, Payment.class)
                .between(Duration.ZERO, Duration.ofMinutes(5))
                .<String>process((o, p, ctx, c) -> {
                    if (o.id().equals("bad")) {
                        throw new IllegalArgumentException("join bug");
                    }
                    c.collect("PAID " + o.id());
                })
                .results((key, line, ts) -> out.add(line + " @" + ts))
                .lateLeft((key, o, ts) -> {
                    throw new IllegalStateException("late handler bug");
                });
        Producer<Ev> orders = engine.newProducer();
        Producer<Ev> payments = engine.newProducer();
        CepTestHarness<Ev> h = CepTestHarness.start(engine);
        orders.send(new Order("bad", 0), 0);
        orders.send(new Order("good", 1_000), 1_000);
        payments.send(new Payment("bad", 2_000), 2_000);
        payments.send(new Payment("good", 3_000), 3_000);
        h.runUntilIdle();

        assertEquals(List.of("PAID good @3000"), out);
        UserCodeException failure = assertInstanceOf(UserCodeException.class, errors.get(0));
        assertEquals("join function", failure.function());
        assertEquals("bad", failure.key());

        orders.watermark(500_000);
        payments.watermark(500_000);
        h.runUntilIdle();
        orders.send(new Order("late", 10), 10);
        h.runUntilIdle();
        assertEquals(2, errors.size());
        UserCodeException late = assertInstanceOf(UserCodeException.class, errors.get(1));
        assertEquals("late-event handler", late.function());
        assertEquals("late", late.key());
        h.close();
    }
}

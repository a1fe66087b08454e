package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/** The README's quick start, with real threads: if this stops compiling or matching, the README is wrong. */
class ReadmeQuickStartTest {

    record Login(String user, boolean ok, long time) {
    }

    @Test
    void quickStartAlertsOnFiveFailedLogins() {
        Pattern<Login> bruteForce = Pattern.<Login>begin("fail", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(l -> !l.ok())
                .times(5).consecutive()
                .within(Duration.ofMinutes(10));

        CepEngine<Login> engine = CepEngine.<Login>builder()
                .shards(2)
                .watermarks(WatermarkStrategy.<Login>forBoundedOutOfOrderness(Duration.ofSeconds(5))
                        .withTimestampAssigner((login, ts) -> login.time()))
                .build();
        ConcurrentLinkedQueue<String> alerts = new ConcurrentLinkedQueue<>();
        engine.keyBy(Login::user).pattern(bruteForce)
                .select((user, match, ts) -> alerts.add(user + " " + match.events("fail").size()))
                .timeouts((user, partial, ts) -> { })
                .lateEvents((user, login, ts) -> { });
        Producer<Login> in = engine.newProducer();
        engine.start();
        List<Login> logins = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < 7; i++) {
            logins.add(new Login("mallory", false, t += 1_000)); // 7 failures in a row: one alert, then 2 left
        }
        logins.add(new Login("alice", false, t += 1_000));
        logins.add(new Login("alice", true, t += 1_000));
        logins.forEach(in::send);
        engine.close();
        assertEquals(List.of("mallory 5"), new ArrayList<>(alerts));
    }
}

package io.cepheus.examples.apps;

import io.cepheus.examples.Alert;
import io.cepheus.nfa.Match;
import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.KeyedStream;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Five failed logins for one user within 10 minutes, in two variants that differ only in contiguity:
 * <ul>
 *   <li>{@link #strict()}: {@code times(5).consecutive()} — five failures <em>in a row</em>; a successful
 *       login in between breaks the streak;</li>
 *   <li>{@link #relaxed()}: plain {@code times(5)} — five failures, whatever else the user did in between
 *       (relaxed contiguity skips the successful logins).</li>
 * </ul>
 * Both use {@code skipPastLastEvent}, so a burst of seven failures raises one alert, not three, and both
 * need the first and the fifth failure less than 10 minutes apart.
 */
public final class FailedLogins {

    /** The rule name of {@link #strict()} alerts. */
    public static final String STRICT = "failed-logins-strict";
    /** The rule name of {@link #relaxed()} alerts. */
    public static final String RELAXED = "failed-logins-relaxed";

    /**
     * A login attempt.
     *
     * @param user    the account
     * @param success whether the password was right
     * @param time    event time, epoch milliseconds
     */
    public record Login(String user, boolean success, long time) {
    }

    private FailedLogins() {
    }

    /** @return five failed logins in a row within 10 minutes */
    public static Pattern<Login> strict() {
        return Pattern.<Login>begin("failed", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(login -> !login.success())
                .times(5).consecutive()
                .within(Duration.ofMinutes(10));
    }

    /** @return five failed logins within 10 minutes, successful ones in between ignored */
    public static Pattern<Login> relaxed() {
        return Pattern.<Login>begin("failed", AfterMatchSkipStrategy.skipPastLastEvent())
                .where(login -> !login.success())
                .times(5)
                .within(Duration.ofMinutes(10));
    }

    /**
     * Registers both variants, matched per user.
     *
     * @param engine an engine not started yet, whose event time is {@link Login#time()}
     * @param alerts receives the alerts (on the shard's thread)
     */
    public static void register(CepEngine<Login> engine, Consumer<Alert> alerts) {
        KeyedStream<Login> byUser = engine.keyBy(Login::user);
        byUser.pattern(strict()).select((user, match, ts) -> alerts.accept(alert(STRICT, match)));
        byUser.pattern(relaxed()).select((user, match, ts) -> alerts.accept(alert(RELAXED, match)));
    }

    private static Alert alert(String rule, Match<Login> match) {
        List<Login> failures = match.events("failed");
        Login first = failures.get(0);
        Login last = failures.get(failures.size() - 1);
        String how = rule.equals(STRICT) ? " failed logins in a row within " : " failed logins within ";
        return new Alert(rule, first.user(), last.time(),
                "user " + first.user() + ": " + failures.size() + how + Alert.span(last.time() - first.time()),
                failures);
    }
}

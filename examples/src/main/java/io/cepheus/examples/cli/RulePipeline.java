package io.cepheus.examples.cli;

import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.rules.RuleStream;
import io.cepheus.runtime.time.WatermarkStrategy;
import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;

/**
 * Rules run from the command line on one engine: map events keyed by their key field, a live rule set fed by the
 * watched rule folder (changes apply from the next event on), alerts to {@link RuleAlerts}, events a rule could not
 * evaluate (a value of the wrong type, an overflow) reported and counted instead of stopping the run. Used by the
 * thread that feeds it.
 */
final class RulePipeline implements Pipeline<MapEvent> {

    /** At most this many events a rule could not evaluate are printed one by one. */
    static final int ERRORS_SHOWN = 10;

    private final CepEngine<MapEvent> engine;
    private final RuleStream<MapEvent> rules;
    private final Producer<MapEvent> in;
    private final WatchedRules watched;
    private final LongAdder deadLetters = new LongAdder();
    private final int inForce;

    /**
     * @param shards  engine shards
     * @param alerts  where alerts go
     * @param watched the rule folder, loaded here into the rule set the engine starts with
     * @param err     where condition errors are reported
     */
    RulePipeline(int shards, RuleAlerts alerts, WatchedRules watched, PrintStream err) {
        this.engine = CepEngine.<MapEvent>builder().shards(shards)
                .watermarks(WatermarkStrategy.<MapEvent>noWatermarks().withTimestampAssigner((e, ts) -> e.time()))
                .build();
        this.rules = engine.keyBy(MapEvent::key).rules().select(alerts)
                .deadLetters((key, event, ts, error) -> {
                    deadLetters.increment();
                    long n = deadLetters.sum();
                    if (n <= ERRORS_SHOWN) {
                        err.println("cepheus: " + (error.getCause() != null ? error.getCause().getMessage()
                                : error.getMessage()) + "\n  event " + Json.write(event) + " skipped by that rule");
                    } else if (n == ERRORS_SHOWN + 1) {
                        err.println("cepheus: more events a rule could not evaluate; the summary counts them");
                    }
                });
        if (alerts.wantsTimeouts()) {
            rules.timeouts(alerts);
        }
        this.watched = watched;
        this.inForce = watched.load(rules);
        this.in = engine.newProducer();
    }

    /** @return how many rules the run starts with */
    int rulesInForce() {
        return inForce;
    }

    /** @return events a rule could not evaluate so far */
    long deadLetters() {
        return deadLetters.sum();
    }

    @Override
    public void start() {
        engine.start();
    }

    @Override
    public void send(MapEvent event) {
        watched.maybePoll();
        in.send(event);
    }

    @Override
    public void watermark(long watermark) {
        in.watermark(watermark);
    }

    @Override
    public void pump() {
    }

    @Override
    public void finish() {
        engine.close();
    }

    @Override
    public long lateEvents() {
        return rules.lateEvents();
    }
}

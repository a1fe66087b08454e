package io.cepheus.examples.cli;

import io.cepheus.examples.Alert;
import io.cepheus.examples.FraudDetector;
import io.cepheus.examples.FraudEvent;
import io.cepheus.examples.apps.CardTesting;
import io.cepheus.examples.apps.FailedLogins;
import io.cepheus.examples.apps.FastCheckout;
import io.cepheus.examples.apps.GoldPayments;
import io.cepheus.examples.apps.SlaBreach;
import io.cepheus.examples.apps.TemperatureMonitoring;
import io.cepheus.examples.apps.TemperatureMonitoring.RackAlert;
import io.cepheus.examples.apps.TemperatureMonitoring.Reading;
import io.cepheus.examples.cli.EventSchema.Kind;
import io.cepheus.pattern.Pattern;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.Producer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The example apps the runner knows, with their input field mappings. */
public final class Apps {

    private Apps() {
    }

    /** The fraud demo's events. */
    static final EventSchema<FraudEvent> FRAUD_EVENT = EventSchema.builder("login or payment", FraudEvent.class)
            .choice("kind", FraudEvent.Kind.values(), "a login attempt or a card payment", FraudEvent::kind)
            .field("user", Kind.TEXT, true, "the account", FraudEvent::user)
            .field("card", Kind.TEXT, false, "the card charged (payments)", FraudEvent::card)
            .field("success", Kind.BOOLEAN, false, "whether the login succeeded (logins)",
                    e -> e.kind() == FraudEvent.Kind.LOGIN ? e.success() : null)
            .field("amount", Kind.MONEY, false, "the amount (payments)",
                    e -> e.kind() == FraudEvent.Kind.PAYMENT ? e.amountCents() : null)
            .field("grade", Kind.TEXT, true, "the account's risk grade, A to D", FraudEvent::grade)
            .field("time", Kind.TIME, true, "when it happened", FraudEvent::ts)
            .parser(row -> {
                long ts = row.time("time");
                String user = row.text("user");
                String grade = row.text("grade");
                return row.choice("kind", FraudEvent.Kind.values()) == FraudEvent.Kind.LOGIN
                        ? FraudEvent.login(ts, user, grade, row.bool("success"))
                        : FraudEvent.payment(ts, user, row.text("card"), grade, row.money("amount"));
            });

    static final EventSchema<FailedLogins.Login> LOGIN = EventSchema.builder("login", FailedLogins.Login.class)
            .field("user", Kind.TEXT, true, "the account", FailedLogins.Login::user)
            .field("success", Kind.BOOLEAN, true, "whether the password was right", FailedLogins.Login::success)
            .field("time", Kind.TIME, true, "when", FailedLogins.Login::time)
            .parser(row -> new FailedLogins.Login(row.text("user"), row.bool("success"), row.time("time")));

    static final EventSchema<CardTesting.Payment> CARD_PAYMENT = EventSchema
            .builder("payment", CardTesting.Payment.class)
            .field("card", Kind.TEXT, true, "the card charged", CardTesting.Payment::card)
            .field("amount", Kind.MONEY, true, "the amount", CardTesting.Payment::amountCents)
            .field("time", Kind.TIME, true, "when", CardTesting.Payment::time)
            .parser(row -> new CardTesting.Payment(row.text("card"), row.money("amount"), row.time("time")));

    static final EventSchema<FastCheckout.ShopEvent> SHOP_EVENT = EventSchema
            .builder("shop event", FastCheckout.ShopEvent.class)
            .field("user", Kind.TEXT, true, "the shopper", FastCheckout.ShopEvent::user)
            .choice("action", FastCheckout.Action.values(), "added to the cart, or paid",
                    FastCheckout.ShopEvent::action)
            .field("time", Kind.TIME, true, "when", FastCheckout.ShopEvent::time)
            .parser(row -> new FastCheckout.ShopEvent(row.text("user"),
                    row.choice("action", FastCheckout.Action.values()), row.time("time")));

    static final EventSchema<GoldPayments.Payment> GRADED_PAYMENT = EventSchema
            .builder("payment", GoldPayments.Payment.class)
            .field("user", Kind.TEXT, true, "the customer", GoldPayments.Payment::user)
            .choice("grade", GoldPayments.Grade.values(), "the customer's grade", GoldPayments.Payment::grade)
            .field("amount", Kind.MONEY, true, "the amount", GoldPayments.Payment::amountCents)
            .field("time", Kind.TIME, true, "when", GoldPayments.Payment::time)
            .parser(row -> new GoldPayments.Payment(row.text("user"),
                    row.choice("grade", GoldPayments.Grade.values()), row.money("amount"), row.time("time")));

    static final EventSchema<SlaBreach.OrderEvent> ORDER_EVENT = EventSchema
            .builder("order event", SlaBreach.OrderEvent.class)
            .field("order", Kind.TEXT, true, "the order id", SlaBreach.OrderEvent::order)
            .choice("status", SlaBreach.Status.values(), "placed or shipped", SlaBreach.OrderEvent::status)
            .field("time", Kind.TIME, true, "when", SlaBreach.OrderEvent::time)
            .parser(row -> new SlaBreach.OrderEvent(row.text("order"),
                    row.choice("status", SlaBreach.Status.values()), row.time("time")));

    static final EventSchema<Reading> READING = EventSchema.builder("reading", Reading.class)
            .field("rack", Kind.TEXT, true, "the rack", Reading::rack)
            .field("temperature", Kind.NUMBER, true, "degrees Celsius", Reading::temperature)
            .field("time", Kind.TIME, true, "when", Reading::time)
            .parser(row -> new Reading(row.text("rack"), row.number("temperature"), row.time("time")));

    static final EventSchema<RackAlert> RACK_ALERT = EventSchema.builder("overheating alert", RackAlert.class)
            .field("rack", Kind.TEXT, true, "the rack", RackAlert::rack)
            .field("temperature", Kind.NUMBER, true, "the second warning's temperature", RackAlert::temperature)
            .field("time", Kind.TIME, true, "the second warning's time", RackAlert::time)
            .outputOnly();

    /** The fraud demo as an app: the default command runs it over a generated stream. */
    public static final ExampleApp<FraudEvent> FRAUD = new ExampleApp<>("fraud",
            "brute-force logins per user and card testing per card, over one stream",
            """
            Two rules over one stream of logins and card payments: five failed logins in a row for one user
            within 10 minutes (times(5).consecutive()), and a payment under 1.00 followed by one over 500.00
            on the same card within 1 minute. Logins are matched per user, payments per card.""",
            FRAUD_EVENT, FraudEvent::ts, List.of(FRAUD_EVENT),
            patterns("brute-force", FraudDetector.bruteForceLogins(), "card-testing", FraudDetector.cardTesting()),
            null, Pipeline.singleEngine(FraudEvent::ts, FraudDetector::register));

    /** The example apps, in the order help lists them. */
    public static final List<ExampleApp<?>> ALL = List.of(
            FRAUD,
            new ExampleApp<>("failed-logins",
                    "5 failed logins within 10 min: strict consecutive() versus relaxed times(5)",
                    """
                    Five failed logins for one user, the first and the fifth less than 10 minutes apart, in two
                    variants: strict (times(5).consecutive(): a successful login breaks the streak) and relaxed
                    (times(5): successful logins in between are skipped). One alert per burst
                    (skipPastLastEvent).""",
                    LOGIN, FailedLogins.Login::time, List.of(LOGIN),
                    patterns(FailedLogins.STRICT, FailedLogins.strict(), FailedLogins.RELAXED, FailedLogins.relaxed()),
                    "samples/failed-logins.csv",
                    Pipeline.singleEngine(FailedLogins.Login::time, FailedLogins::register)),
            new ExampleApp<>("card-testing",
                    "a payment under 1.00, then one over 500.00 on the same card within 1 min",
                    """
                    A fraudster tests a stolen card with a tiny payment, then spends big: a payment under 1.00
                    followed (relaxed contiguity) by one over 500.00 on the same card within 1 minute.""",
                    CARD_PAYMENT, CardTesting.Payment::time, List.of(CARD_PAYMENT),
                    patterns(CardTesting.RULE, CardTesting.pattern()), "samples/card-testing.csv",
                    Pipeline.singleEngine(CardTesting.Payment::time, CardTesting::register)),
            new ExampleApp<>("fast-checkout",
                    "cart then payment within 5 min, paid < 30 s after the last cart event (iterative condition)",
                    """
                    A checkout bot: a run of add-to-cart events, then a payment, within 5 minutes, the payment
                    less than 30 s after the last cart event. The 30 s are an iterative condition reading the
                    cart events of the partial match.""",
                    SHOP_EVENT, FastCheckout.ShopEvent::time, List.of(SHOP_EVENT),
                    patterns(FastCheckout.RULE, FastCheckout.pattern()), "samples/fast-checkout.jsonl",
                    Pipeline.singleEngine(FastCheckout.ShopEvent::time, FastCheckout::register)),
            new ExampleApp<>("gold-payment",
                    "a payment of at least 10,000.00 by a GOLD customer (combined conditions)",
                    """
                    A payment of at least 10,000.00 by a customer of grade GOLD: one stage whose condition
                    combines two named conditions with Condition.and.""",
                    GRADED_PAYMENT, GoldPayments.Payment::time, List.of(GRADED_PAYMENT),
                    patterns(GoldPayments.RULE, GoldPayments.pattern()), "samples/gold-payment.csv",
                    Pipeline.singleEngine(GoldPayments.Payment::time, GoldPayments::register)),
            new ExampleApp<>("sla-breach",
                    "orders not shipped within 1 h, from the timeout side output",
                    """
                    An order placed and not shipped within 1 hour. The app matches "placed, then shipped, within
                    1 h" and reports the timed-out partial matches (the timeout side output) as breaches, at the
                    deadline. The alternative formulation, notFollowedBy with a window, gives the same breaches
                    (see --explain for both patterns).""",
                    ORDER_EVENT, SlaBreach.OrderEvent::time, List.of(ORDER_EVENT),
                    patterns("shipped-in-time (timeouts are breaches)", SlaBreach.shippedInTime(),
                            "not-shipped-in-time (notFollowedBy alternative)", SlaBreach.notShippedInTime()),
                    "samples/sla-breach.csv",
                    Pipeline.singleEngine(SlaBreach.OrderEvent::time, SlaBreach::register)),
            new ExampleApp<>("temperature",
                    "2 warnings (>= 100°) within 10 s raise an alert; 2 rising alerts within 20 s a critical one",
                    """
                    Per rack: two readings of at least 100° within 10 s raise an overheating alert; two
                    overheating alerts within 20 s, the second hotter, raise a critical alert. The second level
                    is a pattern over the alerts, run by a second engine fed from the first's output.""",
                    READING, Reading::time, List.of(READING, RACK_ALERT),
                    patterns(TemperatureMonitoring.OVERHEATING, TemperatureMonitoring.overheating(),
                            TemperatureMonitoring.CRITICAL, TemperatureMonitoring.risingAlerts()),
                    "samples/temperature.jsonl", Apps::temperaturePipeline));

    /**
     * @param name an app's name
     * @return the app, or null
     */
    public static ExampleApp<?> byName(String name) {
        for (ExampleApp<?> app : ALL) {
            if (app.name().equals(name)) {
                return app;
            }
        }
        return null;
    }

    /** @return the app names, for messages */
    public static String names() {
        return String.join(", ", ALL.stream().map(ExampleApp::name).toList());
    }

    private static Map<String, Pattern<?>> patterns(Object... nameThenPattern) {
        Map<String, Pattern<?>> out = new LinkedHashMap<>();
        for (int i = 0; i < nameThenPattern.length; i += 2) {
            out.put((String) nameThenPattern[i], (Pattern<?>) nameThenPattern[i + 1]);
        }
        return out;
    }

    /** Two engines: readings, then alerts; the hand-over runs on every pump. */
    private static Pipeline<Reading> temperaturePipeline(int shards, Consumer<Alert> alerts) {
        CepEngine<Reading> readings = Pipeline.engine(shards, Reading::time);
        TemperatureMonitoring monitoring = new TemperatureMonitoring(readings, shards, alerts);
        Producer<Reading> in = readings.newProducer();
        return new Pipeline<>() {
            @Override
            public void start() {
                readings.start();
                monitoring.alertEngine().start();
            }

            @Override
            public void send(Reading event) {
                in.send(event);
            }

            @Override
            public void watermark(long watermark) {
                in.watermark(watermark);
            }

            @Override
            public void pump() {
                monitoring.forwardAlerts();
            }

            @Override
            public void finish() {
                try {
                    readings.close();
                    monitoring.forwardAlerts();
                } finally {
                    monitoring.alertEngine().close();
                }
            }

            @Override
            public long lateEvents() {
                return Pipeline.lateEventsOf(List.of(readings, monitoring.alertEngine()));
            }
        };
    }
}

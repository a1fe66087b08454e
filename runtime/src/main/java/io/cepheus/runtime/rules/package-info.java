/**
 * Live rule sets: patterns with an id and a version, added, replaced and removed while the engine runs.
 *
 * <pre>{@code
 * RuleStream<Payment> rules = engine.keyBy(Payment::card).rules()
 *         .select((rule, card, match, ts) -> alerts.send(rule + " on " + card))
 *         .timeouts((rule, card, partial, ts) -> { });
 * rules.put("card-testing", 1, cardTesting);                 // the initial set, before start()
 * engine.start();
 * ...
 * rules.put("card-testing", 2, stricter).join();              // later, from any thread: replaces v1 everywhere
 * }</pre>
 *
 * <p>A change travels through the shards' inboxes, so it takes effect at one point of every producer's input: the
 * events a producer sent before are matched by the rule set before the change, those it sent after by the rule set
 * after it, on every shard ({@link io.cepheus.runtime.rules.RuleChange#eventsBefore}). A replaced or removed version
 * drains or is discarded ({@link io.cepheus.runtime.rules.RetirePolicy}); every match and timeout names its
 * {@link io.cepheus.runtime.rules.RuleVersion}. Snapshots carry every rule's state; a restore into an engine with
 * another rule set keeps what it can and says what it dropped ({@link io.cepheus.runtime.rules.RestoredRules}).
 * Rules written as JSON (the {@code cepheus-rules} module) compile into the patterns given here.
 *
 * <p>Thousands of rules on one stream cost what the rules an event concerns cost: the rule set indexes what the
 * rules' conditions require of the event's fields ({@link io.cepheus.pattern.IndexableCondition}; expression
 * conditions state it), reads each field once per event, and hands an event only to the rules it may begin and to
 * the rules holding its key whose waiting partial matches it may change. A rule whose conditions state nothing sees
 * every event. What each rule emits is what it emits alone.
 */
package io.cepheus.runtime.rules;

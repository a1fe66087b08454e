package io.cepheus.rules.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.nfa.conformance.CaseFileRunner;
import io.cepheus.nfa.conformance.CaseOutcome;
import io.cepheus.nfa.conformance.CaseVerdict;
import io.cepheus.nfa.conformance.ConformanceDirectory;
import io.cepheus.nfa.conformance.Ev;
import io.cepheus.nfa.conformance.SingleKeyDriver;
import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;
import io.cepheus.rules.RuleFormatException;
import io.cepheus.rules.Rules;
import io.cepheus.runtime.conformance.EngineConformanceDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The rule conformance suite: every case of {@code conformance/rules} (the CEP cases with their patterns written as
 * JSON rules, conditions as expressions over the events' {@code type} and {@code value}) parsed with
 * {@link Rules#parse}, compiled for the case events' record class, and run through the NFA driver and through the
 * engine (one shard and three by the test harness, three on their own threads), and as one rule of a rule set beside
 * a hundred others; each must print what Apache Flink printed for the same pattern. A rule the builder refuses must be refused as a {@link RuleFormatException} caused by
 * the builder's {@link MalformedPatternException}, never by another failure. Closing line:
 * {@code rules conformance: N passed, M failed}; {@code -Dcepheus.rules.conformance.dir=PATH} runs another folder
 * in the same format.
 */
class RuleConformanceTest {

    /** The property naming another case folder. */
    static final String DIR_PROPERTY = "cepheus.rules.conformance.dir";

    private static final List<CaseVerdict> VERDICTS = new ArrayList<>();

    private record Driver(String name, Function<RuleCase, CaseOutcome> run) {
        @Override
        public String toString() {
            return name;
        }
    }

    @TestFactory
    Stream<DynamicContainer> everyRuleCaseThroughTheNfaAndTheEngine() throws IOException {
        ConformanceDirectory dir = ConformanceDirectory.locate(System.getProperty(DIR_PROPERTY),
                Path.of("").toAbsolutePath(), "rules");
        List<Path> files;
        try (Stream<Path> list = Files.list(dir.requireExisting(DIR_PROPERTY))) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".case")).sorted().toList();
        }
        assertTrue(!files.isEmpty(), "no *.case files in rule conformance directory " + dir.chosen());
        System.out.println("rules conformance: running " + files.size() + " case files from " + dir.chosen());
        List<Driver> drivers = List.of(
                new Driver("NFA", c -> SingleKeyDriver.run(c.name(), pattern(c), c.input(), c.endWatermark())),
                new Driver("engine, 1 shard by the harness", c -> EngineConformanceDriver.run(c.name(), pattern(c),
                        c.input(), c.endWatermark(), 1, false)),
                new Driver("engine, 3 shards by the harness", c -> EngineConformanceDriver.run(c.name(), pattern(c),
                        c.input(), c.endWatermark(), 3, false)),
                new Driver("engine, 3 shards on threads", c -> EngineConformanceDriver.run(c.name(), pattern(c),
                        c.input(), c.endWatermark(), 3, true)),
                new Driver("rule set of " + (NEIGHBOURS.size() + 1) + " rules, 1 shard by the harness",
                        c -> EngineConformanceDriver.runInRuleSet(c.name(), pattern(c), NEIGHBOURS, c.input(),
                                c.endWatermark(), 1, false)),
                new Driver("rule set of " + (NEIGHBOURS.size() + 1) + " rules, 3 shards on threads",
                        c -> EngineConformanceDriver.runInRuleSet(c.name(), pattern(c), NEIGHBOURS, c.input(),
                                c.endWatermark(), 3, true)));
        return drivers.stream().map(driver -> DynamicContainer.dynamicContainer(driver.toString(),
                files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
                    List<CaseVerdict> verdicts = CaseFileRunner.run(file, RuleCase::read, RuleCase::name, driver.run());
                    synchronized (VERDICTS) {
                        VERDICTS.addAll(verdicts);
                    }
                    StringBuilder failures = new StringBuilder();
                    for (CaseVerdict v : verdicts) {
                        if (!v.passed()) {
                            System.out.println("rules conformance FAILED [" + driver + "] " + v.file() + " :: "
                                    + v.name() + "\n" + v.report());
                            failures.append(v.name()).append(' ');
                        }
                    }
                    assertTrue(failures.length() == 0, "failing cases: " + failures);
                }))));
    }

    /**
     * Rules put beside each case's rule: they read the same fields (indexed on equalities, in-lists and ranges of
     * {@code type} and {@code value}, some not indexable at all), begin on the same events, and match what they
     * match; the case's rule must still print exactly what it prints alone.
     */
    private static final List<Pattern<Ev>> NEIGHBOURS = neighbours(100);

    private static List<Pattern<Ev>> neighbours(int count) {
        String types = "ABCSFEDmX";
        List<Pattern<Ev>> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            char type = types.charAt(i % types.length());
            int value = i % 12;
            Pattern<Ev> p = switch (i % 5) {
                case 0 -> Pattern.<Ev>begin("a").where(Rules.expression("type == '" + type + "' && value == " + value,
                        Ev.class)).followedBy("b").where(Rules.expression("value >= " + value, Ev.class));
                case 1 -> Pattern.<Ev>begin("a").where(Rules.expression("value in (" + value + ", " + (value + 3)
                        + ")", Ev.class)).optional().followedByAny("b").where(Rules.expression("type == '" + type
                        + "'", Ev.class));
                case 2 -> Pattern.<Ev>begin("a").where(Rules.expression("value >= " + value + " && value < "
                        + (value + 4), Ev.class)).oneOrMore().next("b").where(Rules.expression("type != '" + type
                        + "'", Ev.class));
                case 3 -> Pattern.<Ev>begin("a").where(Rules.expression("value * 2 > " + value, Ev.class))
                        .next("b").where(Rules.expression("type == '" + type + "'", Ev.class));
                default -> Pattern.<Ev>begin("a").where(e -> e.value() % 3 == value % 3).followedBy("b")
                        .where(Rules.expression("type == '" + type + "' && sum(a.value) > " + value, Ev.class));
            };
            out.add(i % 2 == 0 ? p.within(java.time.Duration.ofMillis(5 + i)) : p);
        }
        return List.copyOf(out);
    }

    /**
     * @return makes the case's pattern from its rule; a refusal must be the rule format's, caused by a builder rule
     *         (anything else is rethrown as a crash, which fails the case even where an ERROR is expected)
     */
    private static Supplier<Pattern<Ev>> pattern(RuleCase c) {
        return () -> {
            try {
                return Rules.parse(c.rule()).compile(Ev.class);
            } catch (RuleFormatException e) {
                if (!(e.getCause() instanceof MalformedPatternException)) {
                    throw new AssertionError("refused for another reason than a builder rule: " + e.getMessage(), e);
                }
                throw e;
            }
        };
    }

    @AfterAll
    static void summary() {
        long passed = VERDICTS.stream().filter(CaseVerdict::passed).count();
        System.out.println("rules conformance: " + passed + " passed, " + (VERDICTS.size() - passed) + " failed");
    }
}

package io.cepheus.nfa.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.AfterMatchSkipStrategy;
import io.cepheus.pattern.MalformedPatternException;
import io.cepheus.pattern.Pattern;
import io.cepheus.pattern.WithinType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PatternRulesTest {

    @Test
    void stageNamesFlattenGroupsInPatternOrder() {
        Pattern<String> group = Pattern.<String>begin("g1").next("g2");
        Pattern<String> p = Pattern.<String>begin("a").followedBy(group).times(2).followedBy("z");
        assertEquals(List.of("a", "g1", "g2", "z"), PatternRules.stageNames(p));
    }

    @Test
    void aNameUsedInsideAndOutsideAGroupIsADuplicate() {
        Pattern<String> group = Pattern.<String>begin("a").next("b");
        Pattern<String> p = Pattern.<String>begin("a").followedBy(group);
        MalformedPatternException e = assertThrows(MalformedPatternException.class, () -> PatternRules.stageNames(p));
        assertTrue(e.getMessage().contains("'a'") && e.getMessage().contains("Duplicate"), e.getMessage());
    }

    @Test
    void theWholePatternWindowIsTheSmallestFirstAndLastWindow() {
        Pattern<String> p = Pattern.<String>begin("a").within(Duration.ofMillis(50))
                .followedBy("b").within(Duration.ofMillis(20))
                .followedBy("c").within(Duration.ofMillis(5), WithinType.PREVIOUS_AND_CURRENT);
        assertEquals(20, PatternRules.window(p));
        assertEquals(0, PatternRules.window(Pattern.<String>begin("a")));
    }

    @Test
    void aTrailingNotFollowedByNeedsAWindow() {
        Pattern<String> p = Pattern.<String>begin("a").notFollowedBy("n");
        MalformedPatternException e = assertThrows(MalformedPatternException.class,
                () -> PatternRules.check(p, PatternRules.stageNames(p), 0));
        assertTrue(e.getMessage().contains("'n'") && e.getMessage().contains("window"), e.getMessage());
        PatternRules.check(p, PatternRules.stageNames(p), 10);
        Pattern<String> gap = p.within(Duration.ofMillis(5), WithinType.PREVIOUS_AND_CURRENT);
        PatternRules.check(gap, PatternRules.stageNames(gap), 0);
    }

    @Test
    void aSkipStrategyMustNameAStageOfThePattern() {
        Pattern<String> p = Pattern.<String>begin("a", AfterMatchSkipStrategy.skipToLast("zz")).followedBy("b");
        MalformedPatternException e = assertThrows(MalformedPatternException.class,
                () -> PatternRules.check(p, PatternRules.stageNames(p), 0));
        assertTrue(e.getMessage().contains("zz"), e.getMessage());
    }
}

package io.cepheus.pattern;

import static io.cepheus.pattern.Rejections.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.pattern.AfterMatchSkipStrategy.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The skip strategies: which need a stage name, which refuse one, and {@code throwExceptionOnMiss}. */
class AfterMatchSkipStrategyTest {

    @Test
    void namedStrategiesNeedAStageName() {
        assertRejected(() -> AfterMatchSkipStrategy.skipToFirst(null), "SKIP_TO_FIRST", "needs the name of a stage");
        assertRejected(() -> AfterMatchSkipStrategy.skipToFirst(""), "SKIP_TO_FIRST", "needs the name of a stage");
        assertRejected(() -> AfterMatchSkipStrategy.skipToLast(null), "SKIP_TO_LAST", "needs the name of a stage");
        assertRejected(() -> AfterMatchSkipStrategy.skipToLast(""), "SKIP_TO_LAST", "needs the name of a stage");
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"NO_SKIP", "SKIP_TO_NEXT", "SKIP_PAST_LAST_EVENT"})
    void unnamedStrategiesRefuseAStageName(Kind kind) {
        assertRejected(() -> new AfterMatchSkipStrategy(kind, "a", false), kind.name(),
                "does not take a stage name");
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"NO_SKIP", "SKIP_TO_NEXT", "SKIP_PAST_LAST_EVENT"})
    void throwExceptionOnMissNeedsANamedStage(Kind kind) {
        AfterMatchSkipStrategy unnamed = new AfterMatchSkipStrategy(kind, null, false);
        assertRejected(unnamed::throwExceptionOnMiss, kind.name(), "names no stage");
    }

    @Test
    void throwExceptionOnMissReturnsANewStrategyForTheSameStage() {
        AfterMatchSkipStrategy first = AfterMatchSkipStrategy.skipToFirst("a");
        AfterMatchSkipStrategy strict = first.throwExceptionOnMiss();

        assertNotSame(first, strict);
        assertFalse(first.throwOnAbsent(), "the receiver is unchanged");
        assertEquals(new AfterMatchSkipStrategy(Kind.SKIP_TO_FIRST, "a", true), strict);
        assertEquals(new AfterMatchSkipStrategy(Kind.SKIP_TO_LAST, "b", true),
                AfterMatchSkipStrategy.skipToLast("b").throwExceptionOnMiss());
    }

    @Test
    void factoriesBuildTheDocumentedStrategies() {
        assertSame(AfterMatchSkipStrategy.noSkip(), AfterMatchSkipStrategy.noSkip());
        assertEquals(new AfterMatchSkipStrategy(Kind.SKIP_TO_NEXT, null, false), AfterMatchSkipStrategy.skipToNext());
        assertEquals(new AfterMatchSkipStrategy(Kind.SKIP_PAST_LAST_EVENT, null, false),
                AfterMatchSkipStrategy.skipPastLastEvent());
        assertNull(AfterMatchSkipStrategy.skipPastLastEvent().stage());
        assertEquals("a", AfterMatchSkipStrategy.skipToLast("a").stage());
    }

    @Test
    void onlyNoSkipIsNotSkipping() {
        assertFalse(AfterMatchSkipStrategy.noSkip().isSkipping());
        assertTrue(AfterMatchSkipStrategy.skipToNext().isSkipping());
        assertTrue(AfterMatchSkipStrategy.skipPastLastEvent().isSkipping());
        assertTrue(AfterMatchSkipStrategy.skipToFirst("a").isSkipping());
        assertTrue(AfterMatchSkipStrategy.skipToLast("a").isSkipping());
    }

    @Test
    void theKindIsRequired() {
        assertThrows(NullPointerException.class, () -> new AfterMatchSkipStrategy(null, null, false));
    }

    @Test
    void everyStageOfAPatternCarriesTheStrategyGivenToBegin() {
        AfterMatchSkipStrategy skip = AfterMatchSkipStrategy.skipToLast("b");
        Pattern<TestEvent> p = Pattern.<TestEvent>begin("a", skip).next("b").oneOrMore().notNext("n");
        for (Pattern<TestEvent> stage : p.stages()) {
            assertSame(skip, stage.skipStrategy(), stage.displayName());
        }
        assertSame(AfterMatchSkipStrategy.noSkip(), Pattern.<TestEvent>begin("a").skipStrategy());
        assertThrows(NullPointerException.class, () -> Pattern.<TestEvent>begin("a", null));
    }
}

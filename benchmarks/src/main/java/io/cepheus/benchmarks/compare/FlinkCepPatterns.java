package io.cepheus.benchmarks.compare;

import io.cepheus.benchmarks.workloads.BenchEvent;
import io.cepheus.benchmarks.workloads.Workload;
import java.time.Duration;
import org.apache.flink.cep.pattern.Pattern;
import org.apache.flink.cep.pattern.conditions.SimpleCondition;

/**
 * The patterns of {@link io.cepheus.benchmarks.workloads.Workloads}, written with Apache Flink CEP's own
 * {@link Pattern} builder, stage for stage: the same names, conditions ({@link SimpleCondition}s on the type
 * letter), contiguity, quantifiers, no after-match skipping ({@code Pattern.begin(name)} defaults to
 * {@code noSkip}, as ours does) and the window on the last stage. Flink's CEP operator takes the skip strategy
 * from the pattern; timeout handling is decided by the process function (see {@link FlinkCepContender}).
 * {@code FlinkTranslationTest} checks both engines agree on a prefix of every workload.
 */
final class FlinkCepPatterns {

    private FlinkCepPatterns() {
    }

    /**
     * @param workload the workload
     * @return its pattern in Flink's API
     */
    static Pattern<BenchEvent, BenchEvent> pattern(Workload workload) {
        Duration window = Duration.ofMillis(workload.windowMs());
        return switch (workload) {
            // begin a where type=F times 5 consecutive
            case W1 -> Pattern.<BenchEvent>begin("a").where(type('F'))
                    .times(5).consecutive()
                    .within(window);
            // begin a where type=A ; followedBy b where type=B ; followedBy c where type=C
            case W2 -> Pattern.<BenchEvent>begin("a").where(type('A'))
                    .followedBy("b").where(type('B'))
                    .followedBy("c").where(type('C'))
                    .within(window);
            // begin a where type=A ; followedByAny b where type=B oneOrMore ; followedBy c where type=C
            case W3 -> Pattern.<BenchEvent>begin("a").where(type('A'))
                    .followedByAny("b").where(type('B')).oneOrMore()
                    .followedBy("c").where(type('C'))
                    .within(window);
            // begin order where type=O ; followedBy shipped where type=S (timeouts are the unshipped orders)
            case W4 -> Pattern.<BenchEvent>begin("order").where(type('O'))
                    .followedBy("shipped").where(type('S'))
                    .within(window);
        };
    }

    /** A stateless condition on the type letter, as a Flink user writes it. */
    private static SimpleCondition<BenchEvent> type(char letter) {
        return SimpleCondition.of(e -> e.type() == letter);
    }
}

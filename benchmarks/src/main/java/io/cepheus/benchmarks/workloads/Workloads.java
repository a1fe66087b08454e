package io.cepheus.benchmarks.workloads;

import io.cepheus.pattern.Pattern;
import java.time.Duration;

/**
 * The patterns of the four workloads, built with the public {@link Pattern} builder as a user would write
 * them: stateless type conditions ({@code SimpleCondition} lambdas), no after-match skipping, and the window
 * set on the last stage.
 */
public final class Workloads {

    private Workloads() {
    }

    /**
     * @param workload the workload
     * @return its pattern
     */
    public static Pattern<BenchEvent> pattern(Workload workload) {
        Duration window = Duration.ofMillis(workload.windowMs());
        return switch (workload) {
            // begin a where type=F times 5 consecutive
            case W1 -> Pattern.<BenchEvent>begin("a").where(e -> e.type() == 'F')
                    .times(5).consecutive()
                    .within(window);
            // begin a where type=A ; followedBy b where type=B ; followedBy c where type=C
            case W2 -> Pattern.<BenchEvent>begin("a").where(e -> e.type() == 'A')
                    .followedBy("b").where(e -> e.type() == 'B')
                    .followedBy("c").where(e -> e.type() == 'C')
                    .within(window);
            // begin a where type=A ; followedByAny b where type=B oneOrMore ; followedBy c where type=C
            case W3 -> Pattern.<BenchEvent>begin("a").where(e -> e.type() == 'A')
                    .followedByAny("b").where(e -> e.type() == 'B').oneOrMore()
                    .followedBy("c").where(e -> e.type() == 'C')
                    .within(window);
            // begin order where type=O ; followedBy shipped where type=S (timeouts are the unshipped orders)
            case W4 -> Pattern.<BenchEvent>begin("order").where(e -> e.type() == 'O')
                    .followedBy("shipped").where(e -> e.type() == 'S')
                    .within(window);
        };
    }
}

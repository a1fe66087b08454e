package io.cepheus.benchmarks.compare;

import java.time.Duration;

/**
 * The three window assigners of the comparison's window rows, each as Cepheus and as Apache Flink write it. All use the
 * assigner's default (event-time) trigger, no lateness, no evictor.
 */
public enum WindowSpec {
    /** Tumbling 1 minute. */
    TUMBLING("tumbling 1 min", 1),
    /** Sliding 10 minutes every 10 seconds: each element is in 60 windows. */
    SLIDING("sliding 10 min / 10 s", 60),
    /** Sessions closing after 30 seconds without an element of the key. */
    SESSION("session gap 30 s", 1);

    private static final Duration MINUTE = Duration.ofMinutes(1);
    private static final Duration SIZE = Duration.ofMinutes(10);
    private static final Duration SLIDE = Duration.ofSeconds(10);
    private static final Duration GAP = Duration.ofSeconds(30);

    private final String label;
    private final int windowsPerElement;

    WindowSpec(String label, int windowsPerElement) {
        this.label = label;
        this.windowsPerElement = windowsPerElement;
    }

    /** @return the row label */
    public String label() {
        return label;
    }

    /** @return how many windows every element is counted in (so the counts over all results sum to this × elements) */
    public int windowsPerElement() {
        return windowsPerElement;
    }

    /** @return the assigner in Cepheus's API */
    io.cepheus.runtime.window.WindowAssigner<WindowEvent> cepheus() {
        return switch (this) {
            case TUMBLING -> io.cepheus.runtime.window.TumblingEventTimeWindows.of(MINUTE);
            case SLIDING -> io.cepheus.runtime.window.SlidingEventTimeWindows.of(SIZE, SLIDE);
            case SESSION -> io.cepheus.runtime.window.EventTimeSessionWindows.withGap(GAP);
        };
    }

    /** @return the assigner in Flink's API */
    org.apache.flink.streaming.api.windowing.assigners.WindowAssigner<Object,
            org.apache.flink.streaming.api.windowing.windows.TimeWindow> flink() {
        return switch (this) {
            case TUMBLING -> org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows.of(MINUTE);
            case SLIDING -> org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows.of(SIZE,
                    SLIDE);
            case SESSION -> org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows.withGap(GAP);
        };
    }
}

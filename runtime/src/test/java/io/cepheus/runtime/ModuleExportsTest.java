package io.cepheus.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Pins what {@code io.cepheus.runtime} exports: the engine, its streams and handlers; time; how workers idle and
 * fail; windows; joins. Every {@code internal} package (shards, operators, queues, timers, agents) stays hidden.
 * Read from the compiled descriptor, since tests run on the class path. The public types of each exported package
 * are pinned too, so that the API grows only on purpose.
 */
class ModuleExportsTest {

    private static ModuleDescriptor descriptor() throws Exception {
        Path mainOutput = Path.of(CepEngine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path moduleInfo = mainOutput.resolve("module-info.class");
        assertTrue(Files.isRegularFile(moduleInfo), "no compiled module-info at " + moduleInfo);
        try (InputStream in = Files.newInputStream(moduleInfo)) {
            return ModuleDescriptor.read(in);
        }
    }

    @Test
    void exportsExactlyThePublicPackages() throws Exception {
        ModuleDescriptor d = descriptor();
        Map<String, Set<String>> exports = new TreeMap<>();
        d.exports().forEach(e -> exports.put(e.source(), e.targets()));
        assertEquals("io.cepheus.runtime", d.name());
        assertEquals(Map.of("io.cepheus.runtime", Set.of(), "io.cepheus.runtime.time", Set.of(),
                "io.cepheus.runtime.agent", Set.of(), "io.cepheus.runtime.join", Set.of(),
                "io.cepheus.runtime.window", Set.of(), "io.cepheus.runtime.rules", Set.of(),
                "io.cepheus.runtime.explain", Set.of(),
                // the Kafka Streams adapter hosts the pattern operators in its tasks: to it alone
                "io.cepheus.runtime.internal.hosted", Set.of("io.cepheus.kafka"),
                "io.cepheus.runtime.internal.cep", Set.of("io.cepheus.kafka"),
                "io.cepheus.runtime.internal.shard", Set.of("io.cepheus.kafka")), exports);
        exports.forEach((p, targets) -> assertFalse(p.contains("internal") && targets.isEmpty(), p));
        assertFalse(d.isOpen());
        assertEquals(Set.of(), d.opens());
    }

    /**
     * An application that is itself a named module resolves only what its modules require, and JCTools requires
     * jdk.unsupported (for sun.misc.Unsafe) only statically: without this the first inbox fails with
     * NoClassDefFoundError there (seen with {@code java -p ... -m app/Main}), while class-path runs never notice.
     */
    @Test
    void requiresJdkUnsupportedForTheQueuesOnTheModulePath() throws Exception {
        assertTrue(descriptor().requires().stream().anyMatch(r -> r.name().equals("jdk.unsupported")),
                "io.cepheus.runtime must require jdk.unsupported");
    }

    /** The public top-level types of each exported package: what users can name. */
    private static final Map<String, Set<String>> PUBLIC_TYPES = Map.of(
            "io.cepheus.runtime", Set.of("BackpressurePolicy", "CepEngine", "CepTestHarness", "CollectingSink",
                    "Collector", "DeadLetter", "DeadLetterHandler", "EndOfBatchListener", "EngineMetrics",
                    "KeyedStream", "LateEventHandler", "MatchHandler", "OutputTag", "PatternMetrics",
                    "PatternProcessFunction", "PatternStream", "Producer", "ShardMetrics", "SideOutputHandler",
                    "TimeoutHandler", "UserCodeException"),
            "io.cepheus.runtime.agent", Set.of("ErrorAction", "ErrorHandler", "IdleStrategy"),
            "io.cepheus.runtime.explain", Set.of("Explanation"),
            "io.cepheus.runtime.rules", Set.of("RestoredRules", "RetirePolicy", "RuleChange", "RuleMatchHandler",
                    "RuleMetrics", "RuleStream", "RuleTimeoutHandler", "RuleVersion"),
            "io.cepheus.runtime.time", Set.of("Clock", "ManualClock", "TimestampAssigner", "WatermarkGenerator",
                    "WatermarkOutput", "WatermarkStrategy"),
            "io.cepheus.runtime.join", Set.of("IntervalJoin", "IntervalJoinMetrics", "IntervalJoinStream",
                    "JoinResultHandler", "ProcessJoinFunction", "TemporalJoin", "TemporalJoinFunction",
                    "TemporalJoinMetrics", "TemporalJoinStream", "UnmatchedHandler"),
            "io.cepheus.runtime.window", Set.of("AccumulationMode", "AggregateFunction", "CoGroupFunction",
                    "CoGroupedStreams", "ContinuousEventTimeTrigger", "ContinuousProcessingTimeTrigger", "CountEvictor",
                    "CountTrigger", "DeltaEvictor", "EventTimeSessionWindows", "EventTimeTrigger", "Evictor",
                    "FlatJoinFunction", "GlobalWindow", "GlobalWindows", "JoinFunction", "JoinedStreams",
                    "KeyedStateStore", "MergingWindowAssigner", "ProcessWindowFunction", "ProcessingTimeSessionWindows",
                    "ProcessingTimeTrigger", "PurgingTrigger", "ReduceFunction", "SessionGapExtractor",
                    "SlidingEventTimeWindows", "SlidingProcessingTimeWindows", "TimeEvictor", "TimeWindow", "Trigger",
                    "TriggerResult", "TriggerState", "TumblingEventTimeWindows", "TumblingProcessingTimeWindows",
                    "Window", "WindowAssigner", "WindowMetrics", "WindowResultHandler", "WindowResults",
                    "WindowedStream"));

    @Test
    void eachExportedPackageHasExactlyItsPublicTypes() throws Exception {
        Path mainOutput = Path.of(CepEngine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, Set<String>> found = new TreeMap<>();
        for (String pkg : PUBLIC_TYPES.keySet()) {
            Set<String> names = new TreeSet<>();
            try (Stream<Path> files = Files.list(mainOutput.resolve(pkg.replace('.', '/')))) {
                for (Path file : files.toList()) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".class") && !name.contains("$") && !name.equals("package-info.class")) {
                        String simple = name.substring(0, name.length() - ".class".length());
                        Class<?> type = Class.forName(pkg + "." + simple, false, CepEngine.class.getClassLoader());
                        if (Modifier.isPublic(type.getModifiers())) {
                            names.add(simple);
                        }
                    }
                }
            }
            found.put(pkg, names);
        }
        assertEquals(sorted(PUBLIC_TYPES), found);
    }

    private static Map<String, Set<String>> sorted(Map<String, Set<String>> types) {
        Map<String, Set<String>> out = new TreeMap<>();
        types.forEach((pkg, names) -> out.put(pkg, new TreeSet<>(names)));
        return out;
    }
}

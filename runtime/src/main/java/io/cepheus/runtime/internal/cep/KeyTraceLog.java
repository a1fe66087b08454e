package io.cepheus.runtime.internal.cep;

import io.cepheus.nfa.trace.TraceEntry;
import io.cepheus.nfa.trace.TraceSink;
import io.cepheus.runtime.explain.Explanation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The trace of one traced key of one CEP operator: its latest entries, up to a bound, so that a key traced for long
 * holds bounded memory. Consecutive watermarks with nothing between them for the key are kept as the latest one.
 *
 * <p>Owned by the shard thread of its operator; read there too ({@link #explanation}).
 */
final class KeyTraceLog implements TraceSink {

    private final Object key;
    private final String subject;
    private final List<String> stages;
    private final int capacity;
    private final ArrayDeque<TraceEntry> entries = new ArrayDeque<>();
    private long dropped;

    KeyTraceLog(Object key, String subject, List<String> stages, int capacity) {
        this.key = key;
        this.subject = subject;
        this.stages = stages;
        this.capacity = capacity;
    }

    @Override
    public void add(TraceEntry entry) {
        if (entry instanceof TraceEntry.Watermark && entries.peekLast() instanceof TraceEntry.Watermark) {
            entries.pollLast();
        }
        if (entries.size() == capacity) {
            entries.pollFirst();
            dropped++;
        }
        entries.addLast(entry);
    }

    /** The watermark moved: entered only once something of the key happened since the last one. */
    void watermark(long watermark) {
        add(new TraceEntry.Watermark(watermark));
    }

    Explanation explanation() {
        return new Explanation(key, subject, stages, new ArrayList<>(entries), dropped);
    }
}

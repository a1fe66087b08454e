package io.cepheus.runtime.internal.output;

import io.cepheus.runtime.DeadLetter;
import io.cepheus.runtime.DeadLetterHandler;
import io.cepheus.runtime.LateEventHandler;
import io.cepheus.runtime.OutputTag;
import io.cepheus.runtime.SideOutputHandler;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The side outputs of one registered operator (pattern, window, join): the handlers set before the engine
 * starts, and a frozen copy per shard that routes what a user function emits to {@code tag}.
 *
 * <p>Registration happens on the thread that configures the engine; each shard reads its own immutable copy.
 */
public final class SideOutputs {

    private record Entry<X>(OutputTag<X> tag, SideOutputHandler<X> handler) {
    }

    private final String owner;
    private final Map<String, Entry<?>> byId = new ConcurrentHashMap<>();

    /** @param owner the stream class users register with, named in messages (e.g. "PatternStream") */
    public SideOutputs(String owner) {
        this.owner = owner;
    }

    /** Registers where records emitted to {@code tag} go; one handler per tag id. */
    public <X> void register(OutputTag<X> tag, SideOutputHandler<X> handler) {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(handler, "handler");
        if (byId.putIfAbsent(tag.id(), new Entry<>(tag, handler)) != null) {
            throw new IllegalArgumentException("side output '" + tag.id() + "' already has a handler");
        }
    }

    /** @return an immutable copy for one shard's operator */
    public Frozen freeze() {
        return new Frozen(owner, Map.copyOf(byId));
    }

    /** One shard's side outputs; used on that shard's thread only. */
    public static final class Frozen {
        private final String owner;
        private final Map<String, Entry<?>> byId;

        private Frozen(String owner, Map<String, Entry<?>> byId) {
            this.owner = owner;
            this.byId = byId;
        }

        /**
         * The handler of a tag that the operator itself routes records to (late data, timeouts, dead letters),
         * resolved when the engine starts, so that a missing registration fails the start instead of the first
         * record.
         *
         * @param tag  the side output
         * @param what what the operator routes there, for the message (e.g. "late events of pattern 0")
         * @throws IllegalStateException if the tag has no handler, or its id was registered with another type
         */
        @SuppressWarnings("unchecked")
        public <X> SideOutputHandler<X> handler(OutputTag<X> tag, String what) {
            Entry<?> out = byId.get(tag.id());
            if (out == null) {
                throw new IllegalStateException(what + " go to side output '" + tag.id() + "', which has no"
                        + " handler: register one with " + owner + ".sideOutput(tag, handler)");
            }
            if (!out.tag().equals(tag)) {
                throw new IllegalStateException(what + " go to side output '" + tag.id() + "' of "
                        + tag.type().getName() + ", but it was registered for " + out.tag().type().getName());
            }
            return (SideOutputHandler<X>) out.handler();
        }

        /**
         * @param handler the late-element handler set on the stream (used when {@code tag} is null)
         * @param tag     the side output set instead, or null
         * @param what    what goes there, for the message (e.g. "late elements of window 0")
         * @return where late elements go: the handler, or one that hands each element to the tag's handler with
         *         the element's timestamp
         * @throws IllegalStateException as {@link #handler} when the tag has no (matching) handler
         */
        public <X> LateEventHandler<X> lateOutput(LateEventHandler<X> handler, OutputTag<X> tag, String what) {
            if (tag == null) {
                return handler;
            }
            SideOutputHandler<X> out = handler(tag, what);
            return (key, element, timestamp) -> out.onOutput(element, timestamp);
        }

        /**
         * @return where dead letters go: {@code handler}, or (when {@code tag} is set) the tag's handler as
         *         {@link DeadLetter} records; as {@link #lateOutput}
         */
        public <X> DeadLetterHandler<X> deadLetterOutput(DeadLetterHandler<X> handler, OutputTag<DeadLetter> tag,
                String what) {
            return tag == null ? handler : toTag(handler(tag, what));
        }

        /**
         * Hands {@code value} to the handler of {@code tag}.
         *
         * @throws IllegalArgumentException if the tag has no handler, or its id was registered with another type
         */
        @SuppressWarnings("unchecked")
        public <X> void emit(OutputTag<X> tag, X value, long timestamp) {
            Entry<?> out = byId.get(tag.id());
            if (out == null) {
                throw new IllegalArgumentException("no handler for side output '" + tag.id()
                        + "': register one with " + owner + ".sideOutput(tag, handler)");
            }
            if (!out.tag().equals(tag)) {
                throw new IllegalArgumentException("side output '" + tag.id() + "' was registered for "
                        + out.tag().type().getName() + ", not " + tag.type().getName());
            }
            ((SideOutputHandler<X>) out.handler()).onOutput(value, timestamp);
        }

        /** @return a handler that emits each dead letter to {@code out} at its timestamp */
        private static <T> DeadLetterHandler<T> toTag(SideOutputHandler<DeadLetter> out) {
            return new DeadLetterHandler<>() {
                @Override
                public void onDeadLetter(Object key, T event, long timestamp, RuntimeException error) {
                    out.onOutput(new DeadLetter(key, event, timestamp, error), timestamp);
                }

                @Override
                public void onFailedOutput(Object key, Object output, long timestamp, RuntimeException error) {
                    out.onOutput(new DeadLetter(key, output, timestamp, error), timestamp);
                }
            };
        }
    }
}

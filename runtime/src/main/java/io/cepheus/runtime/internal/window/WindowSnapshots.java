package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.AccumulationMode;
import io.cepheus.runtime.window.Trigger;
import io.cepheus.runtime.window.TriggerState;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which window operators take part in snapshots, and why the others do not. Every window operator does, given
 * codecs for what it keeps that is not an element: an aggregate's accumulators, the states a trigger keeps (it
 * lists them, with codecs, in {@code Trigger.states()}) and a process function's state. Refused: an aggregate
 * without an accumulator codec, a trigger state without a codec, and retraction where results are not elements
 * (the results a window emitted last are kept to retract them).
 */
public final class WindowSnapshots {

    /** Why an aggregate without an accumulator codec refuses. */
    public static final String NO_ACCUMULATOR_CODEC = "a window aggregate cannot be snapshotted without a codec for"
            + " its accumulators: give one with aggregate(function, accumulatorCodec)";

    /** Why sessions with an aggregate in accumulating-and-retracting mode refuse. */
    public static final String RETRACTED_AGGREGATE = "session windows with an aggregate in accumulating-and-retracting"
            + " mode cannot be snapshotted: each session keeps the result it emitted last, to retract it, and the"
            + " aggregate's result type has no codec (a reduce's results are elements, which have one)";

    /** Why other windows in accumulating-and-retracting mode refuse unless their results are elements. */
    public static final String RETRACTED_RESULTS = "a window in accumulating-and-retracting mode cannot be"
            + " snapshotted unless its results are elements (a reduce without a process function): each window keeps"
            + " the results it emitted last, to retract them, and other result types have no codec";

    /** Why a process function may not store state on an engine with snapshots and no state codec. */
    public static final String NO_STATE_CODEC = "the engine has snapshots enabled and the window's process function"
            + " state has no codec: give one with WindowedStream.stateCodec(codec)";

    private WindowSnapshots() {
    }

    /**
     * @param spec             the window's configuration
     * @param accumulatorCodec the aggregate's accumulator codec, or null
     * @return null if the window's operator takes part in snapshots, else why not
     */
    public static String refusal(WindowSpec<?, ?, ?> spec, Object accumulatorCodec) {
        boolean sessions = SessionWindowOperator.supports(spec);
        boolean general = !SliceWindowOperator.supports(spec) && !sessions;
        boolean plain = spec.process() instanceof PassThrough;
        if (spec.aggregate() != null && accumulatorCodec == null) {
            return NO_ACCUMULATOR_CODEC;
        }
        if (spec.mode() == AccumulationMode.ACCUMULATING_AND_RETRACTING) {
            if (sessions && spec.reduce() == null) {
                return RETRACTED_AGGREGATE;
            }
            if (general && !(spec.reduce() != null && plain)) {
                return RETRACTED_RESULTS;
            }
        }
        if (general) {
            try {
                triggerStates(spec.trigger());
            } catch (IllegalStateException e) {
                return e.getMessage();
            }
        }
        return null;
    }

    /**
     * @return the states {@code trigger} lists, checked: each with a codec and a name of its own
     * @throws IllegalStateException naming the state that is not so
     */
    static List<TriggerState<?>> triggerStates(
            Trigger<?> trigger) {
        List<TriggerState<?>> states = List.copyOf(trigger.states());
        Set<String> names = new HashSet<>();
        for (TriggerState<?> state : states) {
            if (state.codec() == null) {
                throw new IllegalStateException("trigger " + trigger + " lists state '" + state.name() + "' without"
                        + " a codec: give it one with TriggerState.of(name, merge, codec)");
            }
            if (!names.add(state.name())) {
                throw new IllegalStateException("trigger " + trigger + " lists two states named '" + state.name()
                        + "': a snapshot finds a state by its name");
            }
        }
        return states;
    }

    /** @return the state named {@code name} among {@code states}, or null */
    static TriggerState<?> stateNamed(
            List<TriggerState<?>> states, String name) {
        for (TriggerState<?> state : states) {
            if (state.name().equals(name)) {
                return state;
            }
        }
        return null;
    }
}

package io.cepheus.runtime.internal.window;

/**
 * Which window operators take part in snapshots, and why the others do not: the slice operator (tumbling and
 * sliding event-time windows) and the session operator (event-time sessions), each with a reduce, or an aggregate
 * given an accumulator codec, the default trigger and no process function, write their state. The general operator
 * holds trigger state and process-function state of user types, which no codec covers.
 */
public final class WindowSnapshots {

    /** Why an operator other than the slice operator refuses. */
    public static final String REASON = "this window operator cannot be snapshotted: only tumbling, sliding and"
            + " session event-time windows with reduce, or aggregate given an accumulator codec, the default trigger"
            + " and no evictor or process function take part in snapshots; others hold trigger state and"
            + " process-function state of user types that have no codec";

    /** Why a slice operator with a process function after its incremental one refuses. */
    public static final String PROCESS_FUNCTION = "a window with a process function cannot be snapshotted: the"
            + " function's per-window and per-key state are of user types that have no codec";

    /** Why a slice operator with an aggregate but no accumulator codec refuses. */
    public static final String NO_ACCUMULATOR_CODEC = "a window aggregate cannot be snapshotted without a codec for"
            + " its accumulators: give one with aggregate(function, accumulatorCodec)";

    /** Why sessions with an aggregate in accumulating-and-retracting mode refuse. */
    public static final String RETRACTED_AGGREGATE = "session windows with an aggregate in accumulating-and-retracting"
            + " mode cannot be snapshotted: each session keeps the result it emitted last, to retract it, and the"
            + " aggregate's result type has no codec (a reduce's results are elements, which have one)";

    /** Why window joins and co-groups refuse. */
    public static final String WINDOW_JOIN = "window joins and co-groups cannot be snapshotted yet: their windows run"
            + " on the general window operator, whose state (element lists, trigger state, timers named by window"
            + " slots) snapshots do not cover; interval and temporal joins take part";

    private WindowSnapshots() {
    }

    /**
     * @param spec             the window's configuration
     * @param accumulatorCodec the aggregate's accumulator codec, or null
     * @return null if the window's operator takes part in snapshots, else why not
     */
    public static String refusal(WindowSpec<?, ?, ?> spec, Object accumulatorCodec) {
        if (spec.accepts() != null) {
            return WINDOW_JOIN;
        }
        boolean sessions = SessionWindowOperator.supports(spec);
        if (!SliceWindowOperator.supports(spec) && !sessions) {
            return REASON;
        }
        if (!(spec.process() instanceof PassThrough)) {
            return PROCESS_FUNCTION;
        }
        if (spec.reduce() == null && accumulatorCodec == null) {
            return NO_ACCUMULATOR_CODEC;
        }
        if (sessions && spec.reduce() == null
                && spec.mode() == io.cepheus.runtime.window.AccumulationMode.ACCUMULATING_AND_RETRACTING) {
            return RETRACTED_AGGREGATE;
        }
        return null;
    }
}

package io.cepheus.runtime.internal.agent;

import io.cepheus.runtime.agent.ErrorAction;
import io.cepheus.runtime.agent.ErrorHandler;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs an {@link Agent} on the caller's thread, one duty cycle per {@link #invoke()}: the deterministic way to
 * drive an agent in tests (and in a harness that steps an engine by hand).
 *
 * <p>Lifecycle: {@link #start()} calls {@link Agent#onStart()}; {@link #invoke()} runs one
 * {@link Agent#doWork()}; {@link #close()} calls {@link Agent#onClose()}. Failures in {@code onStart} and
 * {@code onClose} always propagate to the caller. A failure in {@code doWork} propagates unchanged when the
 * invoker has no {@link ErrorHandler} (the agent stays usable: the caller decides); with a handler it behaves
 * like an {@link AgentRunner}: {@link ErrorAction#CONTINUE} makes {@code invoke()} return 0, and
 * {@link ErrorAction#STOP} (or a handler that throws) closes the agent.
 *
 * <p><b>Threading:</b> not thread-safe. Use it from one thread, which thereby becomes the agent's thread.
 */
public final class AgentInvoker implements AutoCloseable {

    private final Agent agent;
    /** null: doWork failures propagate to the caller. */
    private final ErrorHandler errorHandler;

    private boolean started;
    private boolean closed;
    private Throwable failure;

    /**
     * An invoker whose {@link #invoke()} lets {@code doWork} failures propagate.
     *
     * @param agent the agent to drive
     */
    public AgentInvoker(Agent agent) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.errorHandler = null;
    }

    /**
     * An invoker that hands {@code doWork} failures to {@code errorHandler}, like an {@link AgentRunner} does.
     *
     * @param agent        the agent to drive
     * @param errorHandler decides whether the agent keeps running after a failure
     */
    public AgentInvoker(Agent agent, ErrorHandler errorHandler) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
    }

    /**
     * Calls {@link Agent#onStart()}. If it throws, the exception propagates and the invoker counts as started,
     * so {@link #close()} still calls {@link Agent#onClose()}.
     *
     * @throws IllegalStateException if already started or closed
     */
    public void start() {
        if (closed) {
            throw new IllegalStateException("agent '" + agent.roleName() + "' is closed; it cannot be started");
        }
        if (started) {
            throw new IllegalStateException("agent '" + agent.roleName() + "' is already started");
        }
        started = true;
        agent.onStart();
    }

    /**
     * Runs one duty cycle.
     *
     * @return what {@link Agent#doWork()} returned, or 0 after a failure the error handler dealt with
     * @throws IllegalStateException if not started, or closed (the cause is the failure that stopped the agent,
     *                               if any)
     */
    public int invoke() {
        if (!started) {
            throw new IllegalStateException("agent '" + agent.roleName() + "' is not started: call start() first");
        }
        if (closed) {
            throw new IllegalStateException("agent '" + agent.roleName() + "' is closed"
                    + (failure == null ? "" : " after a failure"), failure);
        }
        try {
            return agent.doWork();
        } catch (Throwable error) {
            if (errorHandler == null) {
                throw error;
            }
            if (decide(error) == ErrorAction.STOP) {
                failure = error;
                close();
            }
            return 0;
        }
    }

    private ErrorAction decide(Throwable error) {
        return ErrorDecision.decide(errorHandler, agent, error);
    }

    /**
     * Calls {@link Agent#onClose()} if the agent was started, once; later calls do nothing. An exception from
     * {@code onClose} propagates (the invoker is closed anyway).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (started) {
            agent.onClose();
        }
    }

    /** @return true once {@link #start()} was called */
    public boolean isStarted() {
        return started;
    }

    /** @return true once closed, by {@link #close()} or by the error handler */
    public boolean isClosed() {
        return closed;
    }

    /** @return the {@code doWork} failure that made the error handler stop the agent, if any */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** @return the agent this invoker drives */
    public Agent agent() {
        return agent;
    }
}

package io.cepheus.runtime.internal.agent;

import io.cepheus.runtime.agent.ErrorAction;
import io.cepheus.runtime.agent.ErrorHandler;
import io.cepheus.runtime.agent.IdleStrategy;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one {@link Agent} on its own daemon thread, named after {@link Agent#roleName()}: {@link Agent#onStart()},
 * then {@link Agent#doWork()} followed by {@link IdleStrategy#idle(int)} until closed, then
 * {@link Agent#onClose()}.
 *
 * <p><b>Errors:</b> whatever {@code doWork} (or the idle strategy) throws goes to the {@link ErrorHandler}, on the
 * agent's thread. {@link ErrorAction#CONTINUE} runs the next duty cycle; {@link ErrorAction#STOP} - or a
 * handler that throws, or returns null - ends the loop, calls {@code onClose} and records the error as
 * {@link #failure()}. A failure in {@code onStart} is reported and stops the agent whatever the handler says
 * ({@code onClose} is still called); a failure in {@code onClose} is reported too.
 *
 * <p><b>Threading:</b> {@link #start()}, {@link #close(Duration)}, {@link #isRunning()} and {@link #failure()}
 * may be called from any thread. The agent and the idle strategy are used only by the runner's thread.
 */
public final class AgentRunner implements AutoCloseable {

    /** How long {@link #close()} waits for the agent's thread to finish. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private static final int NEW = 0;
    private static final int STARTED = 1;
    private static final int CLOSED_BEFORE_START = 2;

    private final Agent agent;
    private final IdleStrategy idleStrategy;
    private final ErrorHandler errorHandler;
    private final Thread thread;

    private final AtomicInteger lifecycle = new AtomicInteger(NEW);
    /** Counted down as the very last thing the agent's thread does: close() waits on it instead of join. */
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile boolean closeRequested;
    private volatile boolean running;
    private volatile Throwable failure;

    /**
     * Creates the runner; nothing runs until {@link #start()}.
     *
     * @param agent        the agent; its methods are then called by this runner's thread only
     * @param idleStrategy what the thread does after an idle duty cycle; owned by this runner from now on
     * @param errorHandler decides whether the agent keeps running after a failure
     */
    public AgentRunner(Agent agent, IdleStrategy idleStrategy, ErrorHandler errorHandler) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.idleStrategy = Objects.requireNonNull(idleStrategy, "idleStrategy");
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
        String roleName = Objects.requireNonNull(agent.roleName(), "agent.roleName()");
        this.thread = new Thread(this::run, roleName);
        this.thread.setDaemon(true);
    }

    /**
     * Starts the agent's thread. Once this returns, {@code onStart} and {@code onClose} will both be called,
     * even if {@link #close(Duration)} follows at once.
     *
     * @return this runner
     * @throws IllegalStateException if already started or closed
     */
    public AgentRunner start() {
        if (!lifecycle.compareAndSet(NEW, STARTED)) {
            throw new IllegalStateException("agent '" + agent.roleName() + "' is "
                    + (lifecycle.get() == STARTED ? "already started" : "closed; it cannot be started"));
        }
        running = true;
        try {
            thread.start();
        } catch (Throwable cannotStart) {
            running = false;
            terminated.countDown();
            throw cannotStart;
        }
        return this;
    }

    /**
     * {@link #close(Duration)} with {@link #DEFAULT_CLOSE_TIMEOUT}.
     *
     * @throws IllegalStateException if the agent's thread did not finish in time
     */
    @Override
    public void close() {
        close(DEFAULT_CLOSE_TIMEOUT);
    }

    /**
     * Asks the agent to stop and waits until its thread has called {@link Agent#onClose()} and finished. The
     * current duty cycle completes first; a parked idle strategy is woken at once. Closing a runner that was
     * never started just prevents it from starting. Called from the agent's own thread (for example inside
     * {@code doWork}), it only requests the stop: the loop ends after the current duty cycle. Calling it again
     * is harmless.
     *
     * @param timeout how long to wait for the thread, positive
     * @throws IllegalArgumentException if the timeout is not positive
     * @throws IllegalStateException    if the thread did not finish in time (the cause carries its stack), or
     *                                  the caller was interrupted while waiting (the interrupt is kept)
     */
    public void close(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("close timeout must be positive, was " + timeout);
        }
        if (lifecycle.get() == NEW && lifecycle.compareAndSet(NEW, CLOSED_BEFORE_START)) {
            return;
        }
        closeRequested = true;
        if (Thread.currentThread() == thread) {
            return;
        }
        LockSupport.unpark(thread);
        awaitTermination(timeout);
    }

    private void awaitTermination(Duration timeout) {
        boolean finished;
        try {
            finished = terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (finished) {
                // the latch opens as the run method returns: wait for the thread itself to end too (it has nothing
                // left to run), so that no thread of a closed engine is alive when close() returns
                thread.join(Math.max(1, timeout.toMillis()));
                finished = !thread.isAlive();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for agent '" + agent.roleName()
                    + "' to stop; its thread may still be running", e);
        }
        if (!finished) {
            Throwable where = new Throwable("where thread '" + thread.getName() + "' was when the wait ended");
            where.setStackTrace(thread.getStackTrace());
            throw new IllegalStateException("agent '" + agent.roleName() + "' did not stop within " + timeout
                    + ": its doWork or onClose has not returned; the thread is still running", where);
        }
    }

    /**
     * @return true from {@link #start()} until the agent's thread has called {@link Agent#onClose()} and is
     *         finishing; false before start, after close, and after the error handler stopped the agent
     */
    public boolean isRunning() {
        return running;
    }

    /**
     * @return the error that stopped the agent (from {@code onStart}, {@code doWork} or the idle strategy) or,
     *         failing that, one thrown by {@code onClose}; empty if none. Final once {@link #close(Duration)}
     *         has returned.
     */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** @return the agent this runner runs */
    public Agent agent() {
        return agent;
    }

    private void run() {
        try {
            if (startAgent()) {
                dutyCycles();
            }
            closeAgent();
        } finally {
            running = false;
            terminated.countDown();
        }
    }

    private boolean startAgent() {
        try {
            agent.onStart();
            return true;
        } catch (Throwable error) {
            decide(error);
            failure = error;
            return false;
        }
    }

    private void dutyCycles() {
        IdleStrategy idle = idleStrategy;
        while (!closeRequested) {
            try {
                idle.idle(agent.doWork());
            } catch (Throwable error) {
                if (decide(error) == ErrorAction.STOP) {
                    failure = error;
                    return;
                }
            }
        }
    }

    private void closeAgent() {
        try {
            agent.onClose();
        } catch (Throwable error) {
            decide(error);
            if (failure == null) {
                failure = error;
            } else {
                failure.addSuppressed(error);
            }
        }
    }

    private ErrorAction decide(Throwable error) {
        return ErrorDecision.decide(errorHandler, agent, error);
    }

    @Override
    public String toString() {
        return "AgentRunner[" + agent.roleName() + (running ? ", running" : "") + "]";
    }
}

package io.cepheus.runtime.internal.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.agent.ErrorAction;
import io.cepheus.runtime.agent.ErrorHandler;
import io.cepheus.runtime.agent.IdleStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The runner with a real thread. No sleeps and no timing assertions: the test and the agent hand over through
 * latches, every wait is bounded and fails with what it was waiting for.
 */
class AgentRunnerTest {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for " + what);
    }

    /** Logs its lifecycle; counts down {@code cycles} on each doWork and {@code closed} in onClose. */
    private static class LatchAgent implements Agent {
        final List<String> log = new CopyOnWriteArrayList<>();
        final CountDownLatch cycles;
        final CountDownLatch closed = new CountDownLatch(1);
        volatile Thread thread;
        volatile int workCount;

        LatchAgent(int cyclesToAwait) {
            this.cycles = new CountDownLatch(cyclesToAwait);
        }

        @Override
        public void onStart() {
            thread = Thread.currentThread();
            log.add("start");
        }

        @Override
        public int doWork() {
            workCount++;
            cycles.countDown();
            return work();
        }

        int work() {
            return 1;
        }

        @Override
        public void onClose() {
            log.add("close");
            closed.countDown();
        }

        @Override
        public String roleName() {
            return "test-agent";
        }
    }

    @Test
    void runsTheAgentOnItsOwnNamedDaemonThreadUntilClosed() throws InterruptedException {
        LatchAgent agent = new LatchAgent(3);
        AgentRunner runner = new AgentRunner(agent, IdleStrategy.busySpin(), ErrorHandler.alwaysStop());
        assertFalse(runner.isRunning());

        runner.start();
        assertTrue(runner.isRunning());
        await(agent.cycles, "three duty cycles");
        runner.close(CLOSE_TIMEOUT);

        assertFalse(runner.isRunning());
        assertTrue(runner.failure().isEmpty());
        assertNotEquals(Thread.currentThread(), agent.thread);
        assertEquals("test-agent", agent.thread.getName());
        assertTrue(agent.thread.isDaemon());
        assertEquals("start", agent.log.get(0));
        assertEquals("close", agent.log.get(agent.log.size() - 1));
        assertEquals(2, agent.log.size());
        assertTrue(agent.workCount >= 3);
    }

    @Test
    void aHandlerThatContinuesKeepsTheAgentRunning() throws InterruptedException {
        CountDownLatch afterFailure = new CountDownLatch(1);
        RuntimeException boom = new RuntimeException("boom");
        LatchAgent agent = new LatchAgent(1) {
            @Override
            int work() {
                if (workCount == 1) {
                    throw boom;
                }
                afterFailure.countDown();
                return 1;
            }
        };
        List<String> reports = new CopyOnWriteArrayList<>();
        AgentRunner runner = new AgentRunner(agent, IdleStrategy.yielding(), (role, error) -> {
            reports.add(role + ":" + error.getMessage());
            return ErrorAction.CONTINUE;
        });

        runner.start();
        await(afterFailure, "a duty cycle after the failure");
        assertTrue(runner.isRunning());
        runner.close(CLOSE_TIMEOUT);

        assertEquals(List.of("test-agent:boom"), reports);
        assertTrue(runner.failure().isEmpty());
        assertEquals(List.of("start", "close"), agent.log);
    }

    @Test
    void aHandlerThatStopsEndsTheLoopCallsOnCloseAndRecordsTheFailure() throws InterruptedException {
        RuntimeException boom = new RuntimeException("boom");
        LatchAgent agent = new LatchAgent(1) {
            @Override
            int work() {
                throw boom;
            }
        };
        AgentRunner runner = new AgentRunner(agent, IdleStrategy.busySpin(), ErrorHandler.alwaysStop());

        runner.start();
        await(agent.closed, "onClose after the handler said STOP");
        runner.close(CLOSE_TIMEOUT);

        assertFalse(runner.isRunning());
        assertSame(boom, runner.failure().orElseThrow());
        assertEquals(1, agent.workCount);
        assertEquals(List.of("start", "close"), agent.log);
    }

    @Test
    void aHandlerThatThrowsStopsTheAgentWithTheHandlerFailureSuppressed() throws InterruptedException {
        RuntimeException boom = new RuntimeException("boom");
        IllegalStateException handlerBug = new IllegalStateException("handler bug");
        LatchAgent agent = new LatchAgent(1) {
            @Override
            int work() {
                throw boom;
            }
        };
        AgentRunner runner = new AgentRunner(agent, IdleStrategy.busySpin(), (role, error) -> {
            throw handlerBug;
        });

        runner.start();
        await(agent.closed, "onClose after the handler threw");
        runner.close(CLOSE_TIMEOUT);

        assertSame(boom, runner.failure().orElseThrow());
        assertEquals(List.of(handlerBug), List.of(boom.getSuppressed()));
        assertEquals(1, agent.workCount);
    }

    @Test
    void aFailedOnStartIsReportedSkipsTheDutyCyclesAndStillCallsOnClose() throws InterruptedException {
        IllegalArgumentException badConfig = new IllegalArgumentException("bad config");
        LatchAgent agent = new LatchAgent(1) {
            @Override
            public void onStart() {
                super.onStart();
                throw badConfig;
            }
        };
        List<Throwable> reports = new CopyOnWriteArrayList<>();
        // CONTINUE cannot keep an agent that did not start running
        AgentRunner runner = new AgentRunner(agent, IdleStrategy.busySpin(), (role, error) -> {
            reports.add(error);
            return ErrorAction.CONTINUE;
        });

        runner.start();
        await(agent.closed, "onClose after the failed onStart");
        runner.close(CLOSE_TIMEOUT);

        assertEquals(List.of(badConfig), reports);
        assertSame(badConfig, runner.failure().orElseThrow());
        assertEquals(0, agent.workCount);
        assertEquals(List.of("start", "close"), agent.log);
    }

    @Test
    void aFailedOnCloseIsReportedAndRecorded() throws InterruptedException {
        IllegalStateException leak = new IllegalStateException("could not release");
        LatchAgent agent = new LatchAgent(1) {
            @Override
            public void onClose() {
                super.onClose();
                throw leak;
            }
        };
        List<Throwable> reports = new CopyOnWriteArrayList<>();
        AgentRunner runner = new AgentRunner(agent, IdleStrategy.busySpin(), (role, error) -> {
            reports.add(error);
            return ErrorAction.CONTINUE;
        });

        runner.start();
        await(agent.cycles, "a duty cycle");
        runner.close(CLOSE_TIMEOUT);

        assertEquals(List.of(leak), reports);
        assertSame(leak, runner.failure().orElseThrow());
    }

    @Test
    void closeWakesAnAgentParkedForAnHour() throws InterruptedException {
        long anHour = TimeUnit.HOURS.toNanos(1);
        LatchAgent idleAgent = new LatchAgent(1) {
            @Override
            int work() {
                return 0;
            }
        };
        AgentRunner runner = new AgentRunner(idleAgent, IdleStrategy.backoff(0, 0, anHour, anHour),
                ErrorHandler.alwaysStop());

        runner.start();
        await(idleAgent.cycles, "the first (idle) duty cycle");
        // Without the unpark in close() this would wait for the hour-long park and fail on the close timeout.
        runner.close(CLOSE_TIMEOUT);

        assertFalse(runner.isRunning());
        assertEquals(1, idleAgent.workCount);
    }

    @Test
    void closeReportsAnAgentThatDoesNotStopInsteadOfHanging() throws InterruptedException {
        CountDownLatch inDoWork = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        LatchAgent stuck = new LatchAgent(1) {
            @Override
            int work() {
                inDoWork.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return 1;
            }
        };
        AgentRunner runner = new AgentRunner(stuck, IdleStrategy.busySpin(), ErrorHandler.alwaysStop());
        runner.start();
        await(inDoWork, "the agent to block in doWork");

        // the agent is held in doWork by a latch only this test releases, so this wait must end unfinished
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> runner.close(Duration.ofMillis(50)));
        assertTrue(e.getMessage().contains("'test-agent' did not stop within"), e.getMessage());
        assertNotNull(e.getCause());
        assertTrue(e.getCause().getStackTrace().length > 0, "the cause carries the agent thread's stack");
        assertTrue(runner.isRunning());

        release.countDown();
        runner.close(CLOSE_TIMEOUT);
        assertFalse(runner.isRunning());
        assertEquals(List.of("start", "close"), stuck.log);
    }

    @Test
    void closeFromInsideTheAgentRequestsTheStopWithoutJoiningItself() throws InterruptedException {
        AtomicReference<AgentRunner> self = new AtomicReference<>();
        LatchAgent agent = new LatchAgent(1) {
            @Override
            int work() {
                self.get().close(CLOSE_TIMEOUT);
                return 1;
            }
        };
        AgentRunner runner = new AgentRunner(agent, IdleStrategy.busySpin(), ErrorHandler.alwaysStop());
        self.set(runner);

        runner.start();
        await(agent.closed, "onClose after the agent closed its own runner");
        runner.close(CLOSE_TIMEOUT);

        assertEquals(1, agent.workCount);
        assertTrue(runner.failure().isEmpty());
    }

    @Test
    void aRunnerClosedBeforeStartNeverRunsTheAgentAndCannotStart() {
        LatchAgent agent = new LatchAgent(1);
        AgentRunner runner = new AgentRunner(agent, IdleStrategy.busySpin(), ErrorHandler.alwaysStop());

        runner.close(CLOSE_TIMEOUT);
        IllegalStateException e = assertThrows(IllegalStateException.class, runner::start);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertFalse(runner.isRunning());
        assertEquals(List.of(), agent.log);
    }

    @Test
    void startTwiceIsRefusedAndCloseTwiceIsHarmless() {
        AgentRunner runner = new AgentRunner(new LatchAgent(1), IdleStrategy.busySpin(), ErrorHandler.alwaysStop());
        runner.start();
        IllegalStateException e = assertThrows(IllegalStateException.class, runner::start);
        assertTrue(e.getMessage().contains("already started"), e.getMessage());

        runner.close(CLOSE_TIMEOUT);
        runner.close(CLOSE_TIMEOUT);
        assertFalse(runner.isRunning());
    }

    @Test
    void closeNeedsAPositiveTimeout() {
        AgentRunner runner = new AgentRunner(new LatchAgent(1), IdleStrategy.busySpin(), ErrorHandler.alwaysStop());
        assertThrows(IllegalArgumentException.class, () -> runner.close(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> runner.close(Duration.ofSeconds(-1)));
    }
}

package io.cepheus.runtime.internal.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.agent.ErrorAction;
import io.cepheus.runtime.agent.ErrorHandler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentInvokerTest {

    @Test
    void runsTheLifecycleOnTheCallersThreadOneDutyCyclePerInvoke() {
        Thread caller = Thread.currentThread();
        List<Thread> seen = new ArrayList<>();
        ScriptedAgent agent = new ScriptedAgent("counter", n -> {
            seen.add(Thread.currentThread());
            return n < 3 ? n + 1 : 0;
        });
        AgentInvoker invoker = new AgentInvoker(agent);

        invoker.start();
        assertTrue(invoker.isStarted());
        assertEquals(1, invoker.invoke());
        assertEquals(2, invoker.invoke());
        assertEquals(3, invoker.invoke());
        assertEquals(0, invoker.invoke());
        invoker.close();

        assertEquals(List.of("start", "work0", "work1", "work2", "work3", "close"), agent.log);
        assertEquals(List.of(caller, caller, caller, caller), seen);
        assertTrue(invoker.isClosed());
        assertTrue(invoker.failure().isEmpty());
        assertSame(agent, invoker.agent());
    }

    @Test
    void invokeBeforeStartIsRefused() {
        AgentInvoker invoker = new AgentInvoker(ScriptedAgent.alwaysBusy("a"));
        IllegalStateException e = assertThrows(IllegalStateException.class, invoker::invoke);
        assertTrue(e.getMessage().contains("start()"), e.getMessage());
    }

    @Test
    void startTwiceAndStartAfterCloseAreRefused() {
        AgentInvoker twice = new AgentInvoker(ScriptedAgent.alwaysBusy("a"));
        twice.start();
        assertThrows(IllegalStateException.class, twice::start);

        AgentInvoker closed = new AgentInvoker(ScriptedAgent.alwaysBusy("b"));
        closed.close();
        assertThrows(IllegalStateException.class, closed::start);
    }

    @Test
    void invokeAfterCloseIsRefusedAndCloseIsIdempotent() {
        ScriptedAgent agent = ScriptedAgent.alwaysBusy("a");
        AgentInvoker invoker = new AgentInvoker(agent);
        invoker.start();
        invoker.close();
        invoker.close();

        assertThrows(IllegalStateException.class, invoker::invoke);
        assertEquals(List.of("start", "close"), agent.log);
    }

    @Test
    void closingAnAgentThatNeverStartedDoesNotCallOnClose() {
        ScriptedAgent agent = ScriptedAgent.alwaysBusy("a");
        new AgentInvoker(agent).close();
        assertEquals(List.of(), agent.log);
    }

    @Test
    void aFailedOnStartPropagatesAndCloseStillCallsOnClose() {
        List<String> log = new ArrayList<>();
        Agent agent = new Agent() {
            @Override
            public void onStart() {
                log.add("start");
                throw new IllegalArgumentException("bad config");
            }

            @Override
            public int doWork() {
                return 0;
            }

            @Override
            public void onClose() {
                log.add("close");
            }

            @Override
            public String roleName() {
                return "a";
            }
        };
        AgentInvoker invoker = new AgentInvoker(agent);
        assertThrows(IllegalArgumentException.class, invoker::start);
        invoker.close();
        assertEquals(List.of("start", "close"), log);
    }

    @Test
    void withoutAHandlerADoWorkFailurePropagatesAndTheAgentStaysUsable() {
        RuntimeException boom = new RuntimeException("boom");
        ScriptedAgent agent = new ScriptedAgent("a", n -> {
            if (n == 0) {
                throw boom;
            }
            return 7;
        });
        AgentInvoker invoker = new AgentInvoker(agent);
        invoker.start();

        assertSame(boom, assertThrows(RuntimeException.class, invoker::invoke));
        assertFalse(invoker.isClosed());
        assertEquals(7, invoker.invoke());
    }

    @Test
    void aHandlerThatContinuesSeesTheFailureAndInvokeReturnsZero() {
        RuntimeException boom = new RuntimeException("boom");
        ScriptedAgent agent = new ScriptedAgent("shard-1", n -> {
            if (n == 0) {
                throw boom;
            }
            return 5;
        });
        List<String> reports = new ArrayList<>();
        AgentInvoker invoker = new AgentInvoker(agent, (role, error) -> {
            reports.add(role + ":" + error.getMessage());
            return ErrorAction.CONTINUE;
        });
        invoker.start();

        assertEquals(0, invoker.invoke());
        assertEquals(5, invoker.invoke());
        assertEquals(List.of("shard-1:boom"), reports);
        assertFalse(invoker.isClosed());
        assertTrue(invoker.failure().isEmpty());
    }

    @Test
    void aHandlerThatStopsClosesTheAgentAndLaterInvokesNameTheFailure() {
        RuntimeException boom = new RuntimeException("boom");
        ScriptedAgent agent = new ScriptedAgent("a", n -> {
            throw boom;
        });
        AgentInvoker invoker = new AgentInvoker(agent, ErrorHandler.alwaysStop());
        invoker.start();

        assertEquals(0, invoker.invoke());
        assertTrue(invoker.isClosed());
        assertSame(boom, invoker.failure().orElseThrow());
        assertEquals(List.of("start", "work0", "close"), agent.log);
        IllegalStateException later = assertThrows(IllegalStateException.class, invoker::invoke);
        assertSame(boom, later.getCause());
    }

    @Test
    void aHandlerThatThrowsStopsTheAgentAndIsAttachedAsSuppressed() {
        RuntimeException boom = new RuntimeException("boom");
        IllegalStateException handlerBug = new IllegalStateException("handler bug");
        AgentInvoker invoker = new AgentInvoker(new ScriptedAgent("a", n -> {
            throw boom;
        }), (role, error) -> {
            throw handlerBug;
        });
        invoker.start();

        assertEquals(0, invoker.invoke());
        assertTrue(invoker.isClosed());
        assertSame(boom, invoker.failure().orElseThrow());
        assertEquals(List.of(handlerBug), List.of(boom.getSuppressed()));
    }
}

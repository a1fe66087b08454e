package io.cepheus.runtime.internal.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.runtime.agent.IdleStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ShardInboxTest {

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out waiting for " + what);
    }

    private static void join(Thread thread) throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(thread.isAlive(), "timed out waiting for thread " + thread.getName() + " to finish");
    }

    private static ShardInbox<Integer> full(int capacity) {
        ShardInbox<Integer> inbox = new ShardInbox<>(capacity);
        for (int i = 0; i < inbox.capacity(); i++) {
            assertTrue(inbox.offer(i));
        }
        return inbox;
    }

    /**
     * Waits like a backoff, and counts down {@code waiting} on its first idle step: proof that a put found the
     * inbox full and is waiting, with no timing involved.
     */
    private static final class SignallingIdle implements IdleStrategy {
        final CountDownLatch waiting = new CountDownLatch(1);
        private final IdleStrategy delegate = IdleStrategy.backoff(10, 2, 1_000, 100_000);

        @Override
        public void idle(int workCount) {
            waiting.countDown();
            delegate.idle(workCount);
        }

        @Override
        public void reset() {
            delegate.reset();
        }
    }

    /** Waits like a backoff; signals its first idle step, and can count the idle steps from a point on. */
    private static final class CountingIdle implements IdleStrategy {
        final CountDownLatch waiting = new CountDownLatch(1);
        private final IdleStrategy delegate = IdleStrategy.backoff(10, 2, 1_000, 100_000);
        private volatile CountDownLatch next = new CountDownLatch(0);

        CountDownLatch countNext(int steps) {
            CountDownLatch latch = new CountDownLatch(steps);
            next = latch;
            return latch;
        }

        @Override
        public void idle(int workCount) {
            waiting.countDown();
            next.countDown();
            delegate.idle(workCount);
        }

        @Override
        public void reset() {
            delegate.reset();
        }
    }

    /** Runs {@code put} on a new thread, recording what it threw and counting down {@code done} after it. */
    private static final class Putter {
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
        final Thread thread;

        Putter(ShardInbox<Integer> inbox, int record, IdleStrategy idle) {
            thread = new Thread(() -> {
                try {
                    inbox.put(record, idle);
                } catch (Throwable t) {
                    thrown.set(t);
                } finally {
                    interruptedAfter.set(Thread.currentThread().isInterrupted());
                    done.countDown();
                }
            }, "putter");
            thread.setDaemon(true);
            thread.start();
        }
    }

    @Test
    void capacityIsRoundedUpToAPowerOfTwo() {
        assertEquals(2, new ShardInbox<>(2).capacity());
        assertEquals(4, new ShardInbox<>(3).capacity());
        assertEquals(1024, new ShardInbox<>(1000).capacity());
        assertEquals(1024, new ShardInbox<>(1024).capacity());
    }

    @Test
    void refusesCapacitiesOutOfRange() {
        for (int bad : new int[] {-1, 0, 1, (1 << 30) + 1}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> new ShardInbox<>(bad));
            assertTrue(e.getMessage().contains("was " + bad), e.getMessage());
        }
    }

    @Test
    void offerFailsWhenFullAndSucceedsAgainOnceDrained() {
        ShardInbox<Integer> inbox = full(4);
        assertEquals(4, inbox.size());
        assertFalse(inbox.offer(99), "full");
        assertEquals(4, inbox.size(), "a refused offer leaves the inbox as it was");

        List<Integer> out = new ArrayList<>();
        assertEquals(1, inbox.drain(out::add, 1));
        assertTrue(inbox.offer(99));
        assertEquals(4, inbox.drain(out::add, 10));
        assertEquals(List.of(0, 1, 2, 3, 99), out);
        assertEquals(0, inbox.size());
    }

    @Test
    void drainHandsOverOldestFirstAndStopsAtTheLimit() {
        ShardInbox<Integer> inbox = new ShardInbox<>(8);
        for (int i = 1; i <= 5; i++) {
            inbox.offer(i);
        }
        List<Integer> out = new ArrayList<>();
        assertEquals(0, inbox.drain(out::add, 0));
        assertEquals(2, inbox.drain(out::add, 2));
        assertEquals(List.of(1, 2), out);
        assertEquals(3, inbox.size());
        assertEquals(3, inbox.drain(out::add, 10));
        assertEquals(List.of(1, 2, 3, 4, 5), out);
        assertEquals(0, inbox.drain(out::add, 10), "empty");
    }

    @Test
    void aFailingHandlerConsumesWhatItWasHandedAndLeavesTheRestQueued() {
        ShardInbox<Integer> inbox = new ShardInbox<>(8);
        for (int i = 1; i <= 4; i++) {
            inbox.offer(i);
        }
        List<Integer> seen = new ArrayList<>();
        IllegalStateException bad = new IllegalStateException("bad record");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> inbox.drain(r -> {
            seen.add(r);
            if (r == 2) {
                throw bad;
            }
        }, 10));
        assertSame(bad, thrown);
        assertEquals(List.of(1, 2), seen);
        List<Integer> rest = new ArrayList<>();
        inbox.drain(rest::add, 10);
        assertEquals(List.of(3, 4), rest);
    }

    @Test
    void refusesNullsAndNegativeLimits() {
        ShardInbox<Integer> inbox = new ShardInbox<>(4);
        assertThrows(NullPointerException.class, () -> inbox.offer(null));
        assertThrows(NullPointerException.class, () -> inbox.put(null));
        assertThrows(NullPointerException.class, () -> inbox.drain(null, 1));
        assertThrows(IllegalArgumentException.class, () -> inbox.drain(r -> { }, -1));
        assertEquals(0, inbox.size());
    }

    @Test
    void afterCloseProducersAreRefusedButTheConsumerDrainsWhatIsLeft() {
        ShardInbox<Integer> inbox = new ShardInbox<>(4);
        inbox.offer(1);
        inbox.offer(2);
        assertFalse(inbox.isClosedAndDrained(), "open");

        inbox.close();
        inbox.close();
        assertTrue(inbox.isClosed());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> inbox.offer(3));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> inbox.put(3));
        assertFalse(inbox.isClosedAndDrained(), "records still queued");

        List<Integer> out = new ArrayList<>();
        assertEquals(2, inbox.drain(out::add, 10));
        assertEquals(List.of(1, 2), out);
        assertTrue(inbox.isClosedAndDrained());
    }

    @Test
    void anEmptyOpenInboxIsNotDrainedForGood() {
        assertFalse(new ShardInbox<Integer>(4).isClosedAndDrained());
    }

    @Test
    void putWithRoomEnqueuesAtOnce() {
        ShardInbox<Integer> inbox = new ShardInbox<>(2);
        inbox.put(1);
        inbox.put(2, IdleStrategy.noOp());
        List<Integer> out = new ArrayList<>();
        inbox.drain(out::add, 10);
        assertEquals(List.of(1, 2), out);
    }

    /** Records what a put asks of its idle strategy; the putting thread writes, the test reads after joining it. */
    private static final class RecordingIdle implements IdleStrategy {
        final CountDownLatch waiting = new CountDownLatch(1);
        final List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());

        @Override
        public void idle(int workCount) {
            calls.add("idle");
            waiting.countDown();
            Thread.onSpinWait();
        }

        @Override
        public void reset() {
            calls.add("reset");
        }
    }

    @Test
    void aPutResetsItsIdleStrategyOnlyBeforeItsFirstWait() throws InterruptedException {
        RecordingIdle roomy = new RecordingIdle();
        new ShardInbox<Integer>(4).put(1, roomy);
        assertEquals(List.of(), roomy.calls, "a put that found room touched its idle strategy");

        ShardInbox<Integer> inbox = full(2);
        RecordingIdle waiting = new RecordingIdle();
        Putter putter = new Putter(inbox, 42, waiting);
        await(waiting.waiting, "the put to find the inbox full");
        inbox.drain(x -> { }, 2);
        await(putter.done, "the put to complete after room appeared");
        join(putter.thread);
        assertNull(putter.thrown.get());
        assertEquals("reset", waiting.calls.get(0), "the first wait did not start from a reset backoff");
        assertEquals(1, waiting.calls.stream().filter("reset"::equals).count(), waiting.calls.toString());
        assertTrue(waiting.calls.size() > 1 && waiting.calls.subList(1, waiting.calls.size()).stream()
                .allMatch("idle"::equals), waiting.calls.toString());
    }

    @Test
    void putWaitsWhileFullAndCompletesOnceTheConsumerMakesRoom() throws InterruptedException {
        ShardInbox<Integer> inbox = full(2);
        SignallingIdle idle = new SignallingIdle();
        Putter putter = new Putter(inbox, 42, idle);

        await(idle.waiting, "the put to find the inbox full");
        // only this thread drains, so the put cannot have completed yet
        assertEquals(1, putter.done.getCount(), "put returned while the inbox was full");

        List<Integer> out = new ArrayList<>();
        assertEquals(1, inbox.drain(out::add, 1));
        await(putter.done, "the put to complete after room appeared");
        join(putter.thread);
        assertNull(putter.thrown.get());
        inbox.drain(out::add, 10);
        assertEquals(List.of(0, 1, 42), out);
    }

    @Test
    void aBlockedPutWaitsForAnEighthOfTheInboxToBeFreeNotOneSlot() throws InterruptedException {
        ShardInbox<Integer> inbox = full(16); // resumes at 14 queued or fewer
        CountingIdle idle = new CountingIdle();
        Putter putter = new Putter(inbox, 42, idle);
        await(idle.waiting, "the put to find the inbox full");

        List<Integer> out = new ArrayList<>();
        assertEquals(1, inbox.drain(out::add, 1));
        CountDownLatch moreIdling = idle.countNext(50);
        await(moreIdling, "the put to idle 50 more times with one slot free");
        assertEquals(1, putter.done.getCount(), "the put took the one free slot");
        assertEquals(15, inbox.size());

        assertEquals(1, inbox.drain(out::add, 1));
        await(putter.done, "the put to complete once two slots were free");
        join(putter.thread);
        assertNull(putter.thrown.get());
        inbox.drain(out::add, 100);
        assertEquals(42, out.get(out.size() - 1));
        assertEquals(17, out.size());
    }

    @Test
    void aWaitingPutFailsClearlyWhenTheInboxCloses() throws InterruptedException {
        ShardInbox<Integer> inbox = full(2);
        SignallingIdle idle = new SignallingIdle();
        Putter putter = new Putter(inbox, 42, idle);
        await(idle.waiting, "the put to find the inbox full");

        inbox.close();
        await(putter.done, "the put to notice the close");
        join(putter.thread);
        Throwable thrown = putter.thrown.get();
        assertTrue(thrown instanceof IllegalStateException, "expected IllegalStateException, got " + thrown);
        assertTrue(thrown.getMessage().contains("closed"), thrown.getMessage());

        List<Integer> out = new ArrayList<>();
        inbox.drain(out::add, 10);
        assertEquals(List.of(0, 1), out, "the refused record was not enqueued");
        assertTrue(inbox.isClosedAndDrained());
    }

    @Test
    void aWaitingPutFailsClearlyWhenItsThreadIsInterruptedAndKeepsTheInterrupt() throws InterruptedException {
        ShardInbox<Integer> inbox = full(2);
        SignallingIdle idle = new SignallingIdle();
        Putter putter = new Putter(inbox, 42, idle);
        await(idle.waiting, "the put to find the inbox full");

        putter.thread.interrupt();
        await(putter.done, "the put to notice the interrupt");
        join(putter.thread);
        Throwable thrown = putter.thrown.get();
        assertTrue(thrown instanceof IllegalStateException, "expected IllegalStateException, got " + thrown);
        assertTrue(thrown.getMessage().contains("interrupted"), thrown.getMessage());
        assertTrue(putter.interruptedAfter.get(), "the interrupt flag is kept");
        assertEquals(2, inbox.size(), "the record was not enqueued");
    }
}

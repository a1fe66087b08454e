package io.cepheus.examples.windows;

import io.cepheus.examples.windows.PaymentWindows.Payment;
import io.cepheus.nfa.EventCodec;
import io.cepheus.nfa.RecordCodec;
import io.cepheus.runtime.CepEngine;
import io.cepheus.runtime.KeyedStream;
import io.cepheus.runtime.Producer;
import io.cepheus.runtime.time.WatermarkStrategy;
import io.cepheus.runtime.window.CountTrigger;
import io.cepheus.runtime.window.EventTimeSessionWindows;
import io.cepheus.runtime.window.PurgingTrigger;
import io.cepheus.runtime.window.TumblingEventTimeWindows;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A service that restarts without losing or repeating a window result: two shards on their own threads aggregate
 * payments in windows that keep state of every kind a snapshot must carry (a count trigger's counts, a session
 * process function's per-user state), the producer checkpoints half-way, the service "crashes", and a fresh engine
 * restored from the snapshot takes the rest of the input. The results of the two engines together are those of a
 * run that never stopped. Run it with {@code java -cp ... io.cepheus.examples.windows.RestartedWindows}.
 */
public final class RestartedWindows {

    private static final EventCodec<Payment> PAYMENTS = RecordCodec.<Payment>builder().string(Payment::user)
            .float64(Payment::amount).int64(Payment::ts)
            .build(f -> new Payment(f.string(), f.float64(), f.int64()));

    private static final EventCodec<Object> USERS = new EventCodec<>() {
        @Override
        public void write(Object user, DataOutput out) throws IOException {
            out.writeUTF((String) user);
        }

        @Override
        public Object read(DataInput in) throws IOException {
            return in.readUTF();
        }
    };

    /** The per-user values the session function keeps: a count of sessions, as a {@code Long}. */
    private static final EventCodec<Object> SESSION_COUNTS = new EventCodec<>() {
        @Override
        public void write(Object count, DataOutput out) throws IOException {
            out.writeLong((Long) count);
        }

        @Override
        public Object read(DataInput in) throws IOException {
            return in.readLong();
        }
    };

    private RestartedWindows() {
    }

    /**
     * @param count how many payments
     * @param seed  the random seed
     * @return payments of 40 users, a few seconds apart, some of them up to 4 s late
     */
    public static List<Payment> payments(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Payment> payments = new ArrayList<>(count);
        long time = 1_000_000;
        for (int i = 0; i < count; i++) {
            time += random.nextInt(2_000);
            long lateBy = random.nextInt(10) == 0 ? random.nextInt(4_000) : 0;
            payments.add(new Payment("u" + random.nextInt(40), 1 + random.nextInt(10_000) / 100.0, time - lateBy));
        }
        return payments;
    }

    /**
     * The service's engine: every third payment of a user within a minute fires that minute's total so far (a count
     * trigger, purging), and each user's sessions (gap 2 minutes) are numbered by a process function that keeps the
     * count per user. Snapshot codecs for the payments, the users and the session counts. Without
     * {@code flushOnClose}, closing it applies no final watermark: its open windows never fire, as in a crash.
     */
    private static CepEngine<Payment> engine(List<String> results, boolean flushOnClose) {
        CepEngine<Payment> engine = CepEngine.<Payment>builder().shards(2).snapshots(PAYMENTS, USERS)
                .flushOnClose(flushOnClose)
                .watermarks(WatermarkStrategy.<Payment>noWatermarks().withTimestampAssigner((p, ts) -> p.ts()))
                .build();
        KeyedStream<Payment> byUser = engine.keyBy(Payment::user);
        byUser.window(TumblingEventTimeWindows.of(Duration.ofMinutes(1)))
                .trigger(PurgingTrigger.of(CountTrigger.of(3)))
                .reduce((a, b) -> new Payment(a.user(), a.amount() + b.amount(), Math.max(a.ts(), b.ts())))
                .results((user, window, total, ts) -> add(results, String.format(Locale.ROOT,
                        "three payments %s %s %.2f", user, window, total.amount())));
        byUser.window(EventTimeSessionWindows.withGap(Duration.ofMinutes(2)))
                .stateCodec(SESSION_COUNTS)
                .<String>process((user, ctx, payments, out) -> {
                    Long before = ctx.globalState().get("sessions");
                    long n = before == null ? 1 : before + 1;
                    ctx.globalState().put("sessions", n);
                    int count = 0;
                    for (Payment p : payments) {
                        count++;
                    }
                    out.collect(String.format(Locale.ROOT, "session %d of %s: %s, %d payment%s", n, user,
                            ctx.window(), count, count == 1 ? "" : "s"));
                })
                .results((user, window, line, ts) -> add(results, line));
        return engine;
    }

    private static void add(List<String> results, String line) {
        synchronized (results) { // the handlers run on the two shard threads
            results.add(line);
        }
    }

    /** @return every result of a run that never stopped, sorted */
    public static List<String> uninterrupted(List<Payment> payments) {
        List<String> results = new ArrayList<>();
        try (CepEngine<Payment> engine = engine(results, true)) {
            Producer<Payment> in = engine.newProducer();
            engine.start();
            send(in, payments, 0, payments.size());
        }
        return sorted(results);
    }

    /**
     * Sends the first {@code crashAt} payments, checkpoints and waits for the snapshot, then stops the engine as a
     * crash would leave it (no final watermark, so its open windows never fire); a fresh engine restored from the
     * snapshot takes the rest.
     *
     * @return every result of both engines, sorted
     */
    public static List<String> restartedAt(List<Payment> payments, int crashAt) throws Exception {
        List<String> results = new ArrayList<>();
        CompletableFuture<byte[]> snapshot = new CompletableFuture<>();
        CepEngine<Payment> first = engine(results, false);
        first.onSnapshot(snapshot::complete);
        Producer<Payment> in = first.newProducer();
        first.start();
        send(in, payments, 0, crashAt);
        in.checkpoint(1);
        byte[] bytes = snapshot.get(1, TimeUnit.MINUTES);
        first.close(); // nothing was sent after the checkpoint; no final watermark: its open windows are lost

        try (CepEngine<Payment> second = engine(results, true)) {
            second.restoreFrom(bytes);
            Producer<Payment> rest = second.newProducer();
            second.start();
            send(rest, payments, crashAt, payments.size());
        }
        return sorted(results);
    }

    /**
     * Sends payments {@code [from, to)}, with a watermark 5 s behind the latest time so far after every 100th: in
     * band, at fixed places in the input, so a run's results depend on its input alone, not on how fast the threads
     * ran (a periodic watermark would follow the wall clock).
     */
    private static void send(Producer<Payment> in, List<Payment> payments, int from, int to) {
        long latest = Long.MIN_VALUE;
        for (int i = 0; i < to; i++) {
            latest = Math.max(latest, payments.get(i).ts());
            if (i >= from) {
                in.send(payments.get(i));
                if (i % 100 == 99) {
                    in.watermark(latest - 5_000);
                }
            }
        }
    }

    private static List<String> sorted(List<String> results) {
        synchronized (results) {
            List<String> copy = new ArrayList<>(results);
            Collections.sort(copy);
            return copy;
        }
    }

    /** @param args ignored */
    public static void main(String[] args) throws Exception {
        List<Payment> payments = payments(20_000, 7);
        List<String> whole = uninterrupted(payments);
        List<String> restarted = restartedAt(payments, 9_000);
        System.out.printf("%,d results without a stop, %,d across the restart: %s%n", whole.size(), restarted.size(),
                whole.equals(restarted) ? "the same" : "DIFFERENT");
        restarted.stream().limit(5).forEach(System.out::println);
    }
}

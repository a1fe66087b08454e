package io.cepheus.benchmarks.compare;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The interval-join workload of the side-by-side comparison, generated deterministically: the order-payment study
 * ({@code OrderPaymentStudy} in the examples) scaled up: {@code orders} orders over {@value #KEYS} customers spread
 * uniformly over one day, 90% of them paid, the payment delay exponential with mean 1 minute except that 5% of
 * payments come 10-40 minutes after the order.
 *
 * <ul>
 *   <li>From {@code SplittableRandom(seed)}: first every order's time, {@code START + nextLong(DAY_MS)}, sorted
 *       (order {@code id} = rank in time); then per order in id order: customer {@code nextInt(10,000)}, paid if
 *       {@code nextDouble() < 0.9}, and if paid: late if {@code nextDouble() < 0.05}, delay
 *       {@code 600,000 + nextLong(1,800,001)} ms if late, else {@code floor(-60,000 * ln(1 - nextDouble()))} ms.
 *       The payment has the order's customer and time {@code order time + delay}.</li>
 *   <li>Arrival order: orders and payments merged by time (equal times: orders by id first, then payments by
 *       order id), so nothing is ever late. After every {@value #WATERMARK_INTERVAL}th element, the watermark
 *       {@code ts - 1} of that element, on both inputs; after the last one {@code Long.MAX_VALUE}.</li>
 * </ul>
 *
 * With 1M orders: ~0.9M payments, ~11.6 orders per second, a customer orders every ~14 minutes on average, so
 * within R = 5 minutes an order also meets some payments of its customer's other orders.
 *
 * @param orders   how many orders were generated
 * @param seed     the generator's seed
 * @param elements orders and payments in arrival order (shared by every run, never modified)
 * @param prefix   whether {@code elements} are only the first ones of the generated workload
 */
public record JoinInput(int orders, long seed, JoinEvent[] elements, boolean prefix) {

    /** Customers drawn from. */
    public static final int KEYS = 10_000;
    /** Orders in the full workload. */
    public static final int ORDERS = 1_000_000;
    /** The default seed. */
    public static final long DEFAULT_SEED = 7;
    /** Elements between two watermarks. */
    public static final int WATERMARK_INTERVAL = 1_000;
    /** 2024-01-01T00:00:00Z in epoch milliseconds. */
    public static final long START = 1_704_067_200_000L;
    /** Orders are spread over one day. */
    public static final long DAY_MS = 86_400_000L;
    /** The join interval's upper bound R: a payment joins an order when {@code order.ts <= payment.ts <= order.ts + R}. */
    public static final long R_MS = 5 * 60_000L;

    /** Bits of an order id in the packed sort key. */
    private static final int INDEX_BITS = 21;

    /**
     * @param orders how many orders, 1 to 2,097,152
     * @param seed   the seed
     * @return the workload
     */
    public static JoinInput generate(int orders, long seed) {
        if (orders < 1 || orders > (1 << INDEX_BITS)) {
            throw new IllegalArgumentException("orders must be between 1 and " + (1 << INDEX_BITS)
                    + ", was " + orders);
        }
        SplittableRandom random = new SplittableRandom(seed);
        long[] orderTs = new long[orders];
        for (int i = 0; i < orders; i++) {
            orderTs[i] = START + random.nextLong(DAY_MS);
        }
        Arrays.sort(orderTs);
        JoinEvent.Order[] byId = new JoinEvent.Order[orders];
        JoinEvent.Payment[] paymentById = new JoinEvent.Payment[orders];
        int count = 0;
        for (int id = 0; id < orders; id++) {
            int key = random.nextInt(KEYS);
            byId[id] = new JoinEvent.Order(id, key, orderTs[id]);
            count++;
            if (random.nextDouble() < 0.9) {
                long delay = random.nextDouble() < 0.05
                        ? 600_000L + random.nextLong(1_800_001L)
                        : (long) Math.floor(-60_000.0 * Math.log(1 - random.nextDouble()));
                paymentById[id] = new JoinEvent.Payment(id, key, orderTs[id] + delay);
                count++;
            }
        }
        // arrival order = ascending (time - START, side (order 0, payment 1), id), packed in one long per element:
        // time in the high bits, then the side bit, then the id; every element's packed value is unique
        long[] packed = new long[count];
        int at = 0;
        for (int id = 0; id < orders; id++) {
            packed[at++] = ((orderTs[id] - START) << (INDEX_BITS + 1)) | id;
            if (paymentById[id] != null) {
                packed[at++] = ((paymentById[id].ts() - START) << (INDEX_BITS + 1)) | (1L << INDEX_BITS) | id;
            }
        }
        Arrays.sort(packed);
        JoinEvent[] elements = new JoinEvent[count];
        for (int i = 0; i < count; i++) {
            int id = (int) (packed[i] & ((1L << INDEX_BITS) - 1));
            boolean payment = (packed[i] & (1L << INDEX_BITS)) != 0;
            elements[i] = payment ? paymentById[id] : byId[id];
        }
        return new JoinInput(orders, seed, elements, false);
    }

    /**
     * @param i an element's position
     * @return the watermark to send right after element {@code i}, or {@code Long.MIN_VALUE} if none follows it
     *         (the final {@code Long.MAX_VALUE} is sent by the caller after the last element)
     */
    public long watermarkAfter(int i) {
        return (i + 1) % WATERMARK_INTERVAL == 0 ? elements[i].ts() - 1 : Long.MIN_VALUE;
    }

    /**
     * @param length how many elements to keep, at least 1
     * @return the first {@code length} elements in arrival order (a short stream as dense as the whole one)
     */
    public JoinInput prefix(int length) {
        if (length < 1 || length > elements.length) {
            throw new IllegalArgumentException("cannot take " + length + " of " + elements.length + " elements");
        }
        return length == elements.length ? this
                : new JoinInput(orders, seed, Arrays.copyOf(elements, length), true);
    }

    /** @return whether this is the whole default workload */
    public boolean isFullDefault() {
        return !prefix && orders == ORDERS && seed == DEFAULT_SEED;
    }
}

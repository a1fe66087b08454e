package io.cepheus.runtime.internal.window;

import io.cepheus.runtime.window.TriggerState;
import io.cepheus.runtime.window.Window;
import java.util.Arrays;
import java.util.List;

/**
 * One live (key, window) of {@link WindowOperator}: its contents, trigger state, the timers registered for it,
 * per-window process state and the last results (for retraction). Its index in the {@link SlotTable} is the local
 * part of its timers' namespace. Owned by the shard thread, like the operator.
 */
final class WindowSlot {

    private static final long[] NO_TIMERS = new long[0];

    final int index;
    final int keyId;
    final long start;
    final long end;
    final Window window;
    /** An {@link ElementList}, one reduced value or one accumulator; null when empty. */
    Object contents;
    long[] eventTimers = NO_TIMERS;
    int eventTimerCount;
    long[] processingTimers = NO_TIMERS;
    int processingTimerCount;
    MapStore windowState;
    List<Object> lastResults;
    private TriggerState<?>[] stateKeys;
    private Object[] stateValues;
    private int stateCount;

    WindowSlot(int index, int keyId, long start, long end, Window window) {
        this.index = index;
        this.keyId = keyId;
        this.start = start;
        this.end = end;
        this.window = window;
    }

    void addEventTimer(long t) {
        eventTimers = append(eventTimers, eventTimerCount++, t);
    }

    void addProcessingTimer(long t) {
        processingTimers = append(processingTimers, processingTimerCount++, t);
    }

    void forgetEventTimer(long t) {
        eventTimerCount = remove(eventTimers, eventTimerCount, t);
    }

    void forgetProcessingTimer(long t) {
        processingTimerCount = remove(processingTimers, processingTimerCount, t);
    }

    private static long[] append(long[] a, int at, long v) {
        if (at == a.length) {
            a = Arrays.copyOf(a, Math.max(2, a.length * 2));
        }
        a[at] = v;
        return a;
    }

    private static int remove(long[] a, int n, long t) {
        for (int i = 0; i < n; i++) {
            if (a[i] == t) {
                a[i] = a[n - 1];
                return n - 1;
            }
        }
        return n;
    }

    /** @return how many trigger states hold a value in this window */
    int stateCount() {
        return stateCount;
    }

    /** @return the {@code i}-th trigger state holding a value, {@code i < stateCount()} */
    TriggerState<?> stateKey(int i) {
        return stateKeys[i];
    }

    /** @return the {@code i}-th trigger state's value */
    Object stateValue(int i) {
        return stateValues[i];
    }

    /** @return the trigger state's value in this window, or null */
    Object state(TriggerState<?> key) {
        for (int i = 0; i < stateCount; i++) {
            if (stateKeys[i] == key) {
                return stateValues[i];
            }
        }
        return null;
    }

    /** Sets (null: removes) a trigger state's value in this window. */
    void setState(TriggerState<?> key, Object value) {
        for (int i = 0; i < stateCount; i++) {
            if (stateKeys[i] == key) {
                if (value == null) {
                    stateKeys[i] = stateKeys[stateCount - 1];
                    stateValues[i] = stateValues[stateCount - 1];
                    stateKeys[--stateCount] = null;
                    stateValues[stateCount] = null;
                } else {
                    stateValues[i] = value;
                }
                return;
            }
        }
        if (value == null) {
            return;
        }
        if (stateKeys == null) {
            stateKeys = new TriggerState<?>[2];
            stateValues = new Object[2];
        } else if (stateCount == stateKeys.length) {
            stateKeys = Arrays.copyOf(stateKeys, stateCount * 2);
            stateValues = Arrays.copyOf(stateValues, stateCount * 2);
        }
        stateKeys[stateCount] = key;
        stateValues[stateCount++] = value;
    }
}

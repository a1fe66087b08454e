package io.cepheus.runtime.internal.cep;

import io.cepheus.pattern.FieldRequirement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The fields a rule set's conditions name, read once per event: however many rules compare {@code value} with
 * something, the event's {@code value} is read once, and every index lookup and requirement check uses that read.
 * Numbers and strings have slots of their own.
 *
 * <p>Owned by the shard's worker thread, like the {@link ConditionIndex} that holds it.
 *
 * @param <T> the event type
 */
final class EventFields<T> {

    private final Map<String, Integer> numberSlots = new HashMap<>();
    private final Map<String, Integer> textSlots = new HashMap<>();
    private final List<ToDoubleFunction<? super T>> numberReaders = new ArrayList<>();
    private final List<Function<? super T, String>> textReaders = new ArrayList<>();
    private final List<String> numberNames = new ArrayList<>();
    private final List<String> textNames = new ArrayList<>();
    private ToDoubleFunction<? super T>[] numberReaderArray = emptyNumberReaders();
    private Function<? super T, String>[] textReaderArray = emptyTextReaders();
    private double[] numbers = new double[0];
    private String[] texts = new String[0];

    /** @return the slot of a requirement's field, registering it (with the requirement's reader) if new */
    int slotOf(FieldRequirement<T> r) {
        if (r.kind() == FieldRequirement.Kind.TEXT_ONE_OF) {
            return textSlots.computeIfAbsent(r.field(), k -> {
                textReaders.add(r.textReader());
                textNames.add(k);
                return textReaders.size() - 1;
            });
        }
        return numberSlots.computeIfAbsent(r.field(), k -> {
            numberReaders.add(r.numberReader());
            numberNames.add(k);
            return numberReaders.size() - 1;
        });
    }

    /** @return whether any field is registered */
    boolean any() {
        return !numberSlots.isEmpty() || !textSlots.isEmpty();
    }

    /** Forgets every field (before the index is rebuilt). */
    void clear() {
        numberSlots.clear();
        textSlots.clear();
        numberReaders.clear();
        textReaders.clear();
        numberNames.clear();
        textNames.clear();
    }

    /** @return the numeric fields' names, by slot */
    List<String> numberNames() {
        return numberNames;
    }

    /** @return the text fields' names, by slot */
    List<String> textNames() {
        return textNames;
    }

    /** Makes the registered fields the ones {@link #read} reads. */
    @SuppressWarnings("unchecked")
    void freeze() {
        numberReaderArray = numberReaders.toArray(new ToDoubleFunction[0]);
        textReaderArray = textReaders.toArray(new Function[0]);
        numbers = new double[numberReaderArray.length];
        texts = new String[textReaderArray.length];
    }

    /**
     * Reads every field of the event.
     *
     * @return false if a reader threw: then no value may be trusted for this event
     */
    boolean read(T event) {
        try {
            ToDoubleFunction<? super T>[] nr = numberReaderArray;
            for (int i = 0; i < nr.length; i++) {
                numbers[i] = nr[i].applyAsDouble(event);
            }
            Function<? super T, String>[] tr = textReaderArray;
            for (int i = 0; i < tr.length; i++) {
                texts[i] = tr[i].apply(event);
            }
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** @return the numbers read from the last event, by slot (read only) */
    double[] numbers() {
        return numbers;
    }

    /** @return the strings read from the last event, by slot (read only) */
    String[] texts() {
        return texts;
    }

    /** @return the number read from the last event ({@code NaN}: none the reader could place) */
    double number(int slot) {
        return numbers[slot];
    }

    /** @return the string read from the last event (null: none the reader could place) */
    String text(int slot) {
        return texts[slot];
    }

    @SuppressWarnings("unchecked")
    private static <T> ToDoubleFunction<? super T>[] emptyNumberReaders() {
        return new ToDoubleFunction[0];
    }

    @SuppressWarnings("unchecked")
    private static <T> Function<? super T, String>[] emptyTextReaders() {
        return new Function[0];
    }
}

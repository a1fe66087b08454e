package io.cepheus.nfa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class RecordCodecTest {

    record Payment(String card, int cents, long time, double risk, boolean approved, String note) {
    }

    private static final RecordCodec<Payment> CODEC = RecordCodec.<Payment>builder()
            .string(Payment::card).int32(Payment::cents).int64(Payment::time).float64(Payment::risk)
            .bool(Payment::approved).string(Payment::note)
            .build(f -> new Payment(f.string(), f.int32(), f.int64(), f.float64(), f.bool(), f.string()));

    private static <T> T roundTrip(EventCodec<T> codec, T value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        codec.write(value, new DataOutputStream(bytes));
        return codec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    }

    @Test
    void everyFieldKindRoundTrips() throws IOException {
        Payment p = new Payment("4111-x", 99, 1_700_000_000_123L, 0.25, true, "probe ✓");
        assertEquals(p, roundTrip(CODEC, p));
        Payment noNote = new Payment("c", -1, Long.MIN_VALUE, Double.NaN, false, null);
        assertEquals(noNote, roundTrip(CODEC, noNote));
    }

    @Test
    void readingFieldsOutOfOrderIsAClearError() {
        RecordCodec<Payment> wrong = RecordCodec.<Payment>builder().string(Payment::card).int32(Payment::cents)
                .build(f -> new Payment(null, f.int32(), 0, 0, false, f.string()));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> roundTrip(wrong, new Payment("c", 1, 0, 0, false, null)));
        assertTrue(e.getMessage().contains("field 0") && e.getMessage().contains("STRING"), e.getMessage());
    }

    @Test
    void readingTooFewFieldsIsAClearError() {
        RecordCodec<Payment> partial = RecordCodec.<Payment>builder().string(Payment::card).int32(Payment::cents)
                .build(f -> new Payment(f.string(), 0, 0, 0, false, null));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> roundTrip(partial, new Payment("c", 1, 0, 0, false, null)));
        assertTrue(e.getMessage().contains("1 of the 2"), e.getMessage());
    }
}

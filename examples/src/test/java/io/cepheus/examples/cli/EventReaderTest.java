package io.cepheus.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cepheus.examples.FraudEvent;
import io.cepheus.examples.apps.CardTesting.Payment;
import io.cepheus.examples.apps.GoldPayments;
import io.cepheus.examples.apps.TemperatureMonitoring.Reading;
import java.io.BufferedReader;
import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CSV and JSON Lines input: the field mapping, and malformed lines reported with their numbers. */
class EventReaderTest {

    private static final long T = Instant.parse("2025-03-01T09:00:00Z").toEpochMilli();

    private static <E> EventReader<E> reader(String text, EventSchema<E> schema, EventReader.Format format) {
        return new EventReader<>(new BufferedReader(new StringReader(text)), schema, format);
    }

    /** Reads everything, collecting events and the messages of malformed lines. */
    private static <E> List<Object> readAll(EventReader<E> reader) {
        List<Object> out = new ArrayList<>();
        while (true) {
            try {
                E e = reader.next();
                if (e == null) {
                    return out;
                }
                out.add(e);
            } catch (MalformedLineException m) {
                out.add(m.getMessage());
                if (m.fatal()) {
                    return out;
                }
            }
        }
    }

    @Test
    void csvWithHeaderCommentsBlankLinesQuotesAndExtraColumns() {
        String csv = "# a comment before the header\n"
                + "note,card,amount,time\n"
                + "\n"
                + "\"paid, twice\",\"c-1\",0.50,2025-03-01T09:00:00Z\n"
                + "plain , c-2 , 1200 ,1740819601000\n"
                + "\"said \"\"hi\"\"\",c-3,7.5,2025-03-01T10:00:02+01:00\n";
        assertEquals(List.of(new Payment("c-1", 50, T), new Payment("c-2", 1_200_00, T + 1_000),
                new Payment("c-3", 7_50, T + 2_000)), readAll(reader(csv, Apps.CARD_PAYMENT, null)));
    }

    @Test
    void malformedCsvLinesAreReportedWithTheirNumbersAndReadingGoesOn() {
        String csv = """
                card,amount,time
                c-1,0.50,2025-03-01T09:00:00Z
                c-1,abc,2025-03-01T09:00:01Z
                c-1,1.005,2025-03-01T09:00:01Z
                c-1,1.00
                c-1,2.00,yesterday
                ,2.00,2025-03-01T09:00:01Z
                "c-1,2.00,2025-03-01T09:00:01Z
                c-1,600.00,2025-03-01T09:00:30Z
                """;
        assertEquals(List.of(new Payment("c-1", 50, T),
                "line 3: field \"amount\": 'abc' is not an amount, e.g. 12.34",
                "line 4: field \"amount\": '1.005' is not an amount with at most 2 decimals, e.g. 12.34",
                "line 5: 2 columns, the header has 3",
                "line 6: field \"time\": 'yesterday' is not epoch milliseconds or an ISO-8601 time such as "
                        + "2025-03-01T08:00:00Z",
                "line 7: missing field \"card\"",
                "line 8: a quoted field is not closed",
                new Payment("c-1", 600_00, T + 30_000)), readAll(reader(csv, Apps.CARD_PAYMENT, null)));
    }

    @Test
    void aHeaderWithoutTheRequiredColumnsStopsReading() {
        List<Object> read = readAll(reader("card,time\nc-1,1\n", Apps.CARD_PAYMENT, EventReader.Format.CSV));
        assertEquals(List.of("line 1: the CSV header lacks amount (it has card, time)"), read);
        assertEquals("line 1: the CSV header names \"card\" twice",
                readAll(reader("card,card,amount,time\n", Apps.CARD_PAYMENT, null)).get(0));
    }

    @Test
    void jsonLinesAreTakenFromTheFirstBraceAndMapByKey() {
        String jsonl = """
                {"rack": "r1", "temperature": 101.5, "time": 1740819600000, "extra": null}

                {"time": "2025-03-01T09:00:01Z", "rack": "r\\u0032", "temperature": -3}
                {"rack": "r3", "temperature": "hot", "time": 1}
                {"rack": "r3", "temperature": 1, "time": 1, "tags": ["a"]}
                {"rack": "r3", "temperature": 1
                not json
                {"rack": "r3", "rack": "r4", "temperature": 1, "time": 1}
                {"rack": "r5", "temperature": 99.9, "time": 1740819602000}
                """;
        EventReader<Reading> reader = reader(jsonl, Apps.READING, null);
        assertEquals(List.of(new Reading("r1", 101.5, T), new Reading("r2", -3, T + 1_000),
                "line 4: field \"temperature\": 'hot' is not a number, e.g. 98.6",
                "line 5: field \"tags\" holds a nested value; only flat objects are read",
                "line 6: the line ends inside the JSON object",
                "line 7: expected a JSON object starting with '{'",
                "line 8: field \"rack\" appears twice",
                new Reading("r5", 99.9, T + 2_000)), readAll(reader));
        assertEquals(EventReader.Format.JSONL, reader.format());
    }

    @Test
    void choicesAndBooleansAreCaseInsensitiveAndNamedWhenWrong() {
        String csv = "user,grade,amount,time\nada,GOLD,10000,1\nbo,platinum,1,2\n";
        assertEquals(List.of(new GoldPayments.Payment("ada", GoldPayments.Grade.GOLD, 10_000_00, 1),
                "line 3: field \"grade\": 'platinum' is not one of standard, silver, gold"),
                readAll(reader(csv, Apps.GRADED_PAYMENT, null)));

        String fraud = """
                kind,user,card,success,amount,grade,time
                login,u1,,FALSE,,A,1
                payment,u1,c1,,12.34,A,2
                login,u1,,maybe,,A,3
                payment,u1,,,12.34,A,4
                """;
        assertEquals(List.of(FraudEvent.login(1, "u1", "A", false), FraudEvent.payment(2, "u1", "c1", "A", 12_34),
                "line 4: field \"success\": 'maybe' is not true or false", "line 5: missing field \"card\""),
                readAll(reader(fraud, Apps.FRAUD_EVENT, null)));
    }

    @Test
    void formatFromFileName() {
        assertEquals(EventReader.Format.CSV, EventReader.Format.ofFileName("a/B.CSV"));
        assertEquals(EventReader.Format.JSONL, EventReader.Format.ofFileName("x.jsonl"));
        assertEquals(EventReader.Format.JSONL, EventReader.Format.ofFileName("x.ndjson"));
        assertNull(EventReader.Format.ofFileName("x.txt"));
    }

    @Test
    void anEmptyInputHasNoEvents() {
        assertNull(reader("", Apps.READING, null).next());
        assertNull(reader("\n\n", Apps.READING, EventReader.Format.JSONL).next());
        assertTrue(readAll(reader("card,amount,time\n", Apps.CARD_PAYMENT, null)).isEmpty());
    }

    @Test
    void outputOnlySchemasRejectInput() {
        assertThrows(MalformedLineException.class,
                () -> reader("{\"rack\": \"r\"}", Apps.RACK_ALERT, null).next());
    }
}

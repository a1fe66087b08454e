package io.cepheus.runtime.internal.timer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cepheus.runtime.internal.timer.KeyDueWheel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyDueTimesTest {

    private final KeyDueTimes due = new KeyDueTimes(new KeyDueWheel(16, 64));

    @Test
    void keysComeOutInTimeThenKeyOrderOnceTheWatermarkPassesTheirEntry() {
        due.ensureKeys(10);
        arm(7, 500);
        arm(3, 500);
        arm(5, 200);
        arm(9, 900);
        assertEquals(List.of(), drain(100));
        assertEquals(List.of("5@200", "3@500", "7@500"), drain(600));
        assertEquals(1, due.armed(), "key 9 still waits");
        assertEquals(List.of("9@900"), drain(1_000));
        assertEquals(0, due.armed());
    }

    @Test
    void anEntryWhoseKeyIsDueLaterGoesBackToTheWheelAtTheRealTime() {
        due.ensureKeys(2);
        arm(1, 300);
        due.next(1, 800); // the session grew: the entry at 300 stays, the real due time moves on
        assertEquals(List.of(), drain(400));
        assertEquals(800, due.entry(1), "re-armed at the real due time");
        assertEquals(List.of("1@800"), drain(800));
    }

    @Test
    void onlyAnEarlierTimeReplacesTheEntryAndADisarmedKeyNeverComesOut() {
        due.ensureKeys(3);
        arm(0, 400);
        due.armIfEarlier(0, 600, Long.MIN_VALUE);
        assertEquals(400, due.entry(0), "a later time leaves the entry alone");
        due.armIfEarlier(0, 250, Long.MIN_VALUE);
        due.next(0, 250);
        assertEquals(250, due.entry(0));
        arm(2, 300);
        due.disarm(2);
        assertEquals(300, due.entry(2), "parked");
        assertEquals(List.of("0@250"), drain(1_000), "the stale entry at 400 and the disarmed key are skipped");
        assertEquals(KeyDueTimes.UNARMED, due.entry(2), "a parked entry nothing took up is dropped");
        assertEquals(0, due.armed());
    }

    @Test
    void aParkedEntryServesALaterArmOfTheKeyInsteadOfANewEntry() {
        due.ensureKeys(2);
        arm(1, 300);
        due.disarm(1);
        due.armIfEarlier(1, 700, Long.MIN_VALUE); // e.g. the key's state emptied, then filled again
        due.next(1, 700);
        assertEquals(300, due.entry(1), "the parked entry serves");
        assertEquals(1, due.armed());
        assertEquals(List.of(), drain(500), "it comes out early and goes back at the real time");
        assertEquals(700, due.entry(1));
        assertEquals(List.of("1@700"), drain(800));
        assertEquals(0, due.armed());
    }

    @Test
    void aParkedEntryTakenUpWhileDueNowGoesBackToTheWheelWhenTheNewTimeIsAhead() {
        due.ensureKeys(2);
        due.arm(1, 100, 500); // at or before the watermark: due now
        due.next(1, 100);
        due.disarm(1);
        due.armIfEarlier(1, 900, 500);
        due.next(1, 900);
        due.collectDue(500);
        assertEquals(-1, due.pollDue(), "not due at 500");
        assertEquals(900, due.entry(1));
        assertEquals(List.of("1@900"), drain(1_000));
    }

    @Test
    void aKeyArmedAtOrBeforeTheWatermarkWhileDrainingComesOutInTheSameDrain() {
        due.ensureKeys(2);
        arm(1, 100);
        due.collectDue(500);
        assertEquals(1, due.pollDue());
        due.arm(1, 450, 500); // due again within this watermark, e.g. its removal
        due.next(1, 450);
        assertEquals(1, due.pollDue());
        assertEquals(450, due.polledTime());
        assertEquals(-1, due.pollDue());
    }

    @Test
    void roomGrowsForNewKeyIdsUnarmed() {
        due.ensureKeys(1_000);
        assertEquals(KeyDueTimes.UNARMED, due.entry(999));
    }

    private void arm(int id, long time) {
        due.arm(id, time, Long.MIN_VALUE);
        due.next(id, time);
    }

    private List<String> drain(long watermark) {
        List<String> out = new ArrayList<>();
        due.collectDue(watermark);
        for (int id = due.pollDue(); id >= 0; id = due.pollDue()) {
            out.add(id + "@" + due.polledTime());
        }
        return out;
    }
}

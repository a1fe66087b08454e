package io.cepheus.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.cepheus.benchmarks.workloads.Workload;
import io.cepheus.benchmarks.workloads.WorkloadGenerator;
import io.cepheus.benchmarks.workloads.WorkloadStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The driver {@link PairedBuilds} runs in each build reproduces the published counts, whatever the spec's kind. */
class PairedBuildRunTest {

    @Test
    void theEngineAndTheBareNfaGiveW3sPublishedCounts() {
        assertEquals("matches=83031,timeouts=0,checksum=eb1fb4cd4893157a", new PairedBuildRun("engine:W3").runOnce());
        assertEquals("matches=83031,timeouts=0,checksum=eb1fb4cd4893157a", new PairedBuildRun("bare:W3").runOnce());
        assertEquals("matches=83031,timeouts=0,checksum=eb1fb4cd4893157a", new PairedBuildRun("threads:W3/2").runOnce());
    }

    @Test
    void theStreamSortedByKeyGivesThePublishedCountsToo() {
        assertEquals("matches=83031,timeouts=0,checksum=eb1fb4cd4893157a", new PairedBuildRun("sorted:W3").runOnce());
        assertEquals("matches=380698,timeouts=69354,checksum=86fde9db71644037",
                new PairedBuildRun("sorted:W4").runOnce());
    }

    @Test
    void theBareNfaReleasingIdleKeysGivesThePublishedCountsToo() {
        assertEquals("matches=83031,timeouts=0,checksum=eb1fb4cd4893157a", new PairedBuildRun("lean:W3").runOnce());
        assertEquals("matches=380698,timeouts=69354,checksum=86fde9db71644037",
                new PairedBuildRun("lean:W4").runOnce());
    }

    @Test
    void theFloorReleasesEveryEventOnceAndGivesEveryKeyIdBack() {
        for (Workload workload : List.of(Workload.W3, Workload.W4)) {
            WorkloadStream stream = WorkloadGenerator.generate(workload);
            long checksum = 0;
            for (int i = 0; i < stream.size(); i++) {
                checksum += stream.timestamps()[i] + stream.values()[i];
            }
            assertEquals(String.format("events=%d,ids=0,checksum=%x", stream.size(), checksum),
                    new PairedBuildRun("floor:" + workload).runOnce());
        }
    }

    @Test
    void windowSpecsPickTheAssigner() {
        assertEquals("results=632462,checksum=50467940", new PairedBuildRun("window:10/10").runOnce());
        assertEquals("results=57610,checksum=50467940", new PairedBuildRun("window:0/30").runOnce());
    }

    @Test
    void aBadSpecIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PairedBuildRun("W1"));
        assertEquals("spec W1: expected engine:Wn, bare:Wn, lean:Wn, sorted:Wn, floor:Wn, threads:Wn/N or"
                + " window:SIZE/SLIDE",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new PairedBuildRun("bare:W1/2"));
        assertEquals("spec bare:W1/2: only threads takes a shard count (Wn/N)", e.getMessage());
    }
}

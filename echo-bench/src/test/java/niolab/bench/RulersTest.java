package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.common.results.BenchComparison;
import org.junit.jupiter.api.Test;

/**
 * The rulers' judgements on made-up readings (client-bound, disturbed, their shares, the repeat
 * of a disturbed round) and the meter on a real process: what the lead's verdicts rest on.
 */
class RulersTest {
    /** A one-second reading: server and client CPU in cores' worth, their cores, the busiest threads, the interference. */
    private static Rulers.Reading reading(double server, double serverCores, double serverPeak, double client, double clientCores,
            double clientPeak, double interference) {
        return new Rulers.Reading(1.0, (long) (server * 1e9), (long) (client * 1e9), serverCores, clientCores, serverPeak, clientPeak,
                "0-1", interference, Double.NaN);
    }

    private static Slice slice(String server, int round, Rulers.Reading r) {
        return new Slice(1, round, 0, server, 1000, 0, 1.0, 1000, 50, 100, 1.0, false, r);
    }

    @Test
    void aSaturatedClientAgainstAServerWithHeadroomIsClientBound() {
        // echo-bench at 96% of its one core, lt at 70% of its core: the rate is the client's
        assertThat(reading(0.70, 1, 0.68, 0.96, 1, 0.50, 0).clientBound()).isTrue();
        // both saturated: the rate is the server's as much as the client's, not called client-bound
        assertThat(reading(0.95, 1, 0.93, 0.96, 1, 0.50, 0).clientBound()).isFalse();
        // the server's one event loop at 92% of the slice is saturated although it may use two cores
        assertThat(reading(0.95, 2, 0.92, 0.97, 1, 0.50, 0).clientBound()).isFalse();
        // two client threads on two cores at 60% each: not saturated
        assertThat(reading(0.70, 1, 0.68, 1.20, 2, 0.60, 0).clientBound()).isFalse();
        // one client thread at 91%: saturated whatever the cores
        assertThat(reading(0.70, 2, 0.40, 0.95, 2, 0.91, 0).clientBound()).isTrue();
        // the client not read (a wrk that could not be reaped): no call either way
        assertThat(new Rulers.Reading(1.0, 700_000_000L, -1, 1, 1, 0.6, Double.NaN, "0", 0, Double.NaN).clientBound()).isFalse();
        assertThat(Rulers.saturated(0.90, 1, Double.NaN)).isTrue();
        assertThat(Rulers.saturated(0.89, 1, Double.NaN)).isFalse();
        assertThat(Rulers.saturated(Double.NaN, Double.NaN, 0.95)).isTrue();
    }

    @Test
    void theClientBoundShareCountsTheServedSlicesThatWereRead() {
        List<Slice> slices = new ArrayList<>();
        for (int round = 1; round <= 4; round++) {
            slices.add(slice("lt", round, reading(0.70, 1, 0.68, 0.96, 1, 0.5, 0)));        // client-bound
            // mp saturated itself: its rate is its own even where the client is saturated too
            slices.add(slice("mp", round, reading(0.95, 1, 0.93, round <= 1 ? 0.96 : 0.6, 1, 0.5, 0)));
        }
        slices.add(slice("mp", 5, Rulers.Reading.NONE));            // unread: left out
        slices.add(Slice.refused(1, 6, 0, "lt"));                    // served nothing: left out
        assertThat(Rulers.clientBoundShare(Rulers.of(slices, "lt"))).isEqualTo(1.0);
        assertThat(Rulers.clientBoundShare(Rulers.of(slices, "mp"))).isEqualTo(0.0);
        assertThat(Rulers.clientBoundShare(slices)).isEqualTo(0.5);
        assertThat(Rulers.clientBoundShare(List.of(slice("x", 1, Rulers.Reading.NONE)))).isNaN();
        assertThat(Rulers.rateClientBound(slices, "mp", "lt")).as("the baseline's rate is the client's").isTrue();
        List<Slice> fair = new ArrayList<>();
        for (Slice s : Rulers.of(slices, "mp")) fair.add(s);
        for (int round = 1; round <= 4; round++) fair.add(slice("et", round, reading(0.95, 1, 0.93, round <= 2 ? 0.96 : 0.6, 1, 0.5, 0)));
        assertThat(Rulers.rateClientBound(fair, "et", "mp")).isFalse();
        assertThat(Rulers.clientBoundWords(slices, "mp", "lt"))
                .isEqualTo("client-bound (the client saturated, the server not, in 0% of mp's and 100% of lt's slices): the rate ratio "
                        + "is the client's; compare CPU per request");
        assertThat(Rulers.clientBoundWords(fair, "et", "mp")).isNull();
    }

    @Test
    void theDisturbedShareCountsTheJudgedSlicesAboveTheLimit() {
        List<Slice> slices = new ArrayList<>();
        double[] interference = {0.01, 0.04, 0.07, 0.20, Double.NaN};
        for (int i = 0; i < interference.length; i++) slices.add(slice("lt", i + 1, reading(0.7, 1, 0.6, 0.5, 1, 0.4, interference[i])).judged(0.05));
        assertThat(slices.get(2).rulers().disturbed()).isTrue();
        assertThat(slices.get(1).rulers().disturbed()).isFalse();
        assertThat(Rulers.disturbedShare(slices)).isEqualTo(0.5);
        assertThat(Rulers.disturbedWords(slices)).isEqualTo("50% of the slices disturbed (other processes above 5% of the measured cores)");
        assertThat(Rulers.disturbedShare(List.of(slice("lt", 1, reading(0.7, 1, 0.6, 0.5, 1, 0.4, 0.3))))).as("never judged").isNaN();
    }

    /** Other processes' CPU on the measured cores: busy ticks less the tracked nanoseconds, over the cores' capacity. */
    @Test
    void interferenceIsTheMeasuredCoresBusyTimeLessTheTrackedProcesses() {
        BitSet cores = cpus(0, 1);
        long[] before = {1000, 2000, 5};
        long[] after = {1090, 2080, 105};    // 90 + 80 ticks = 1.7 s busy on cores 0-1 over 1 s; cpu2 is not measured
        double share = CpuMeter.interference(before, after, cores, 1_000_000_000L, 1_500_000_000L);
        assertThat(share).isCloseTo(0.10, org.assertj.core.data.Offset.offset(1e-9));   // 0.2 s of 2 cores' 2 s
        assertThat(CpuMeter.interference(before, after, cores, 1_000_000_000L, 1_900_000_000L)).as("ticks sample: never below 0").isZero();
        cores.set(7);
        assertThat(CpuMeter.interference(before, after, cores, 1_000_000_000L, 0)).as("a CPU without a line").isNaN();
        assertThat(CpuMeter.interference(null, after, cores, 1_000_000_000L, 0)).isNaN();
        assertThat(CpuMeter.cpuList(cpus(0, 1, 2, 3, 6, 8, 9))).isEqualTo("0-3,6,8-9");
    }

    /** A disturbed round is run again at most --repeat-disturbed times; the last run is kept, judged, either way. */
    @Test
    void aDisturbedRoundIsRepeatedAtMostNTimes() {
        RulerOptions options = new RulerOptions();
        options.interferenceLimit = "5%";
        options.repeatDisturbed = 2;
        assertThat(options.problem()).isNull();
        List<Slice> done = new ArrayList<>();
        done.add(slice("a", 1, reading(0.7, 1, 0.6, 0.5, 1, 0.4, 0.01)));
        assertThat(options.repeatRound(done, 0, 1)).isFalse();
        assertThat(done).hasSize(1);
        assertThat(done.get(0).rulers().limit()).isEqualTo(0.05);
        int attempts = 0;
        while (true) {
            int from = done.size();
            done.add(slice("a", 2, reading(0.7, 1, 0.6, 0.5, 1, 0.4, 0.01)));
            done.add(slice("b", 2, reading(0.7, 1, 0.6, 0.5, 1, 0.4, 0.30)));
            attempts++;
            if (!options.repeatRound(done, from, 2)) break;
            assertThat(done).as("the disturbed round's slices are taken out").hasSize(1);
        }
        assertThat(attempts).isEqualTo(3);
        assertThat(done).hasSize(3);
        assertThat(done.get(2).rulers().disturbed()).isTrue();
        assertThat(options.repeatedRounds()).isEqualTo(2);
        BenchComparison.SliceRulers json = done.get(2).json().rulers();
        assertThat(json.disturbed()).isTrue();
        assertThat(json.interferenceLimit()).isEqualTo(0.05);
        assertThat(json.clientBound()).isFalse();
        assertThat(Slice.refused(1, 1, 0, "a").json().rulers()).isNull();
        options.interferenceLimit = "five";
        assertThat(options.problem()).startsWith("--interference-limit must be a percentage");
        options.interferenceLimit = "5%";
        options.repeatDisturbed = RulerOptions.MAX_REPEATS + 1;
        assertThat(options.problem()).startsWith("--repeat-disturbed must be from 0 to " + RulerOptions.MAX_REPEATS);
    }

    /** The meter on a spinning child as the server: its nanoseconds, its cores, and this JVM as the client. */
    @Test
    void theMeterReadsAServerTreeAndThisJvm() throws Exception {
        Process spin = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 100000000 ]; do i=$((i+1)); done").start();
        try {
            CpuMeter meter = CpuMeter.start(spin.pid());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            Rulers.Reading r;
            // bounded: the child spins, so its clock moves within a few scheduler ticks
            do {
                Thread.sleep(20);
                r = meter.stopEngine(1, -1);
            } while (r.serverNs() <= 0 && System.nanoTime() < deadline);
            assertThat(r.serverNs()).isPositive();
            assertThat(r.clientNs()).isGreaterThanOrEqualTo(0);
            assertThat(r.serverCores()).isPositive();
            assertThat(r.clientCores()).isEqualTo(1.0);
            assertThat(r.cores()).isNotNull();
            assertThat(r.serverPeak()).isPositive();
        } finally {
            spin.destroyForcibly();
            spin.waitFor(10, TimeUnit.SECONDS);
        }
        Rulers.Reading gone = CpuMeter.start(spin.pid()).stopEngine(1, -1);
        assertThat(gone.serverNs()).isEqualTo(-1);
        assertThat(gone.serverShare()).isNaN();
    }

    private static BitSet cpus(int... cpus) {
        BitSet b = new BitSet();
        for (int c : cpus) b.set(c);
        return b;
    }
}

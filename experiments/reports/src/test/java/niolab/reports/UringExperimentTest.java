package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import niolab.common.ServerCatalog;
import niolab.common.stats.Interval;
import org.junit.jupiter.api.Test;

/** exp-uring judges each ring mode on its own claims against et, and tells two modes apart in CPU only beyond the threshold. */
class UringExperimentTest {
    @Test
    void theModesAreTheUringEntriesOfTheSelectionTheScriptRuns() throws IOException {
        List<String> uring = new ArrayList<>(ServerCatalog.named("uring"));
        uring.retainAll(ServerCatalog.selection("uring"));
        assertThat(UringExperiment.MODES).isEqualTo(uring).isNotEmpty().doesNotContain("netty-uring", "uring-sqpoll");
        assertThat(UringExperiment.BASELINE).isEqualTo(ServerCatalog.selection("uring").get(0)).isEqualTo("et");
        // the script reads the same selection, so what it runs and what the report judges cannot part
        assertThat(Files.readString(Path.of("..", "scripts", "exp-uring.sh"))).contains("SERVERS=${SERVERS:-$(selection uring)}");
    }

    @Test
    void aModeIsNamedByItsCatalogLabelWithoutTheArchitecture() {
        List<String> names = new ArrayList<>();
        for (String m : UringExperiment.MODES) names.add(UringExperiment.mode(m));
        // the template's keys (basic_syscalls_50, ...) and prose are these words
        assertThat(names).containsExactly("basic", "multishot", "bufring");
        assertThat(ServerCatalog.server("uring-bufring").label()).isEqualTo("uring " + UringExperiment.mode("uring-bufring"));
    }

    @Test
    void theModesAreToldApartOnlyBeyondTheThreshold() {
        assertThat(UringExperiment.modesVerdict(new Interval(0.90, 0.85, 0.94), 0.02)).isEqualTo("less, beyond the report's threshold of ±2.0%");
        assertThat(UringExperiment.modesVerdict(new Interval(1.10, 1.06, 1.15), 0.05)).isEqualTo("more, beyond the report's threshold of ±5.0%");
        // below 1 but inside the floor: no difference
        assertThat(UringExperiment.modesVerdict(new Interval(0.97, 0.96, 0.98), 0.047)).isEqualTo("the same within the report's threshold of ±4.7%");
        assertThat(UringExperiment.modesVerdict(new Interval(0.97, 0.90, 1.03), 0.02)).startsWith("this run cannot tell the two modes apart");
    }

    /**
     * Rounds where bufring serves twice et's rate at half its CPU, basic half its rate at the
     * same CPU, and multishot within a few percent either way of et's rate.
     */
    private static UringExperiment.Data rounds() {
        StringBuilder csv = new StringBuilder("server,workload,round,requests_per_s,loop_user_us_per_req,loop_sys_us_per_req,server_cpu_us_per_req,syscalls_per_req\n");
        for (String w : new String[] {"echo-1", "echo-50", "echo-1000"}) {
            for (int round = 0; round < 8; round++) {
                double rate = 10000 + 100 * round, wobble = round % 2 == 0 ? 1.03 : 0.97;
                csv.append("et,").append(w).append(',').append(round).append(',').append(rate).append(",4,6,20,2\n");
                csv.append("uring-bufring,").append(w).append(',').append(round).append(',').append(2 * rate).append(",2,3,10,0.5\n");
                csv.append("uring-basic,").append(w).append(',').append(round).append(',').append(rate / 2).append(",4,6,20,1\n");
                csv.append("uring-multishot,").append(w).append(',').append(round).append(',').append(rate * wobble).append(",4,6,20,1\n");
            }
        }
        return new UringExperiment.Data(Csv.parse(csv.toString(), "samples.csv"), Map.of(), "6.8", "", "", Map.of());
    }

    @Test
    void eachModeIsJudgedOnItsOwnClaimsAgainstEt() {
        UringExperiment.Findings f = UringExperiment.analyse(rounds());
        assertThat(f.matching()).containsExactly("bufring");
        assertThat(f.failing()).containsExactly("basic");
        // without compares the claims come from the rounds: three per mode and load
        assertThat(f.claims()).hasSize(18);
        assertThat(f.syscalls()).isEqualTo(0.25);
        assertThat(f.kernel()).isEqualTo(0.5);
        assertThat(f.modesPaired()).isFalse();
        assertThat(f.modes().estimate()).isEqualTo(0.5);
        assertThat(f.single()).isEqualTo(0.5);
    }
}

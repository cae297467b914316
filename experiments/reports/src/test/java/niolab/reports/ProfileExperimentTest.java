package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import niolab.common.stats.ClaimVerdict;
import niolab.reports.ProfileCategories.Category;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * exp-profile's analysis on fixtures: the shares come from the collapsed stacks, the µs per request from the
 * profiled run's server CPU, vt's extra cost is named by category, and a server without a
 * profile is left out rather than shown as zero.
 */
class ProfileExperimentTest {
    private static final Path EXPERIMENTS = Paths.get("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private Path results;

    @BeforeEach
    void writeRun() throws Exception {
        results = dir.resolve("results/profile");
        Files.createDirectories(results);
        Files.createDirectories(dir.resolve("templates"));
        Files.copy(EXPERIMENTS.resolve("templates/exp-profile.md"), dir.resolve("templates/exp-profile.md"));
        Files.writeString(results.resolve("env.json"), "{\"date\":\"d\",\"cpu\":\"c\",\"cores\":2,\"memory\":\"m\",\"kernel\":\"k\",\"jdk\":\"j\","
                + "\"java_opts\":\"\",\"server_cpu\":\"0\",\"client_cpu\":\"1\",\"ulimit_n\":\"1024\",\"ip_local_port_range\":\"1 2\",\"tcp_tw_reuse\":\"2\",\"commit\":\"x\"}");
        String bench = Files.readString(Paths.get(getClass().getResource("/echo-bench-sample.json").toURI()));
        for (String mode : new String[] {"keepalive", "echo"}) {
            gzip(results.resolve("lt-" + mode + ".collapsed.gz"), ProfileCategoriesTest.fixture("fixture-lt-keepalive.collapsed"));
            gzip(results.resolve("vt-" + mode + ".collapsed.gz"), ProfileCategoriesTest.fixture("fixture-vt-keepalive.collapsed"));
            Files.writeString(results.resolve("lt-" + mode + ".json"), bench);
            // vt: twice lt's server CPU per request (6.4 and 6.0 µs in the sample: median 6.2)
            Files.writeString(results.resolve("vt-" + mode + ".json"), bench.replace("\"server\": 6.4", "\"server\": 12.8").replace("\"server\": 6.0", "\"server\": 12.0"));
        }
        gzip(results.resolve("lt-pipelined.collapsed.gz"), ProfileCategoriesTest.fixture("fixture-lt-keepalive.collapsed"));
        Files.writeString(results.resolve("lt-pipelined.json"), bench);
    }

    private static void gzip(Path to, Path from) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(to))) {
            out.write(Files.readAllBytes(from));
        }
    }

    private ProfileExperiment.Findings analyse() {
        return ProfileExperiment.analyse(ProfileExperiment.load(new Results(results)));
    }

    @Test
    void sharesAndVtsExtraCostComeFromTheStacks() {
        ProfileExperiment.Findings f = analyse();
        // lt fixture: 33 of 100 samples in the TCP send, its largest category
        assertThat(f.largest().get(0).get(0)).isEqualTo(Category.TCP_SEND);
        assertThat(f.data().modes().get(0).get(0).profile().share(Category.TCP_SEND)).isEqualTo(0.33);
        // parser: 20% of lt's 6.2 µs = 1.24 µs, the 2nd largest category
        assertThat(f.parser()).hasSize(1);
        ProfileExperiment.Parser parser = f.parser().get(0);
        assertThat(parser.server()).isEqualTo("lt");
        assertThat(parser.share()).isEqualTo(0.2);
        assertThat(parser.us()).isCloseTo(1.24, within(1e-9));
        assertThat(parser.rank()).isEqualTo(2);
        // vt 12.4 µs against lt's 6.2; the scheduler is 24/42 of vt's, none of lt's: +7.09 µs
        ProfileExperiment.VtOverLt keepalive = f.vt().get(0);
        assertThat(keepalive.vtCpu()).isEqualTo(12.4);
        assertThat(keepalive.ltCpu()).isEqualTo(6.2);
        assertThat(keepalive.top().get(0)).isEqualTo(Category.VT_SCHEDULER);
        assertThat(keepalive.extra().get(0)).isCloseTo(7.09, within(0.005));
        // one profiled run per server gives no interval: the claim waits for bench-vt's rounds
        assertThat(f.claims().get(0).verdict()).isEqualTo(ClaimVerdict.UNDECIDED);
        assertThat(f.claims().get(0).measured().estimate()).isEqualTo(2.0);
        // no vt pipelined profile: the server is absent, not zero
        assertThat(f.data().modes().get(1)).extracting(ProfileExperiment.Profiled::server).containsExactly("lt");
    }

    @Test
    void theChartsAreAFlameGraphPerProfileAndABarChartPerProfiledMode() throws IOException {
        Map<Path, String> files = ExperimentReports.render(dir, new ProfileExperiment());
        assertThat(files).containsKeys(Paths.get("charts/profile-keepalive.svg"), Paths.get("charts/profile-flame-vt-keepalive.svg"))
                .doesNotContainKey(Paths.get("charts/profile-flame-vt-pipelined.svg")).doesNotContainKey(Paths.get("charts/profile-short.svg"));
        assertThat(files.get(Paths.get("charts/profile-flame-lt-keepalive.svg"))).contains("HttpRequestParser.parse (20.0%)");
    }

    @Test
    void ltsShortConnectionsNameTheJdkCallsFromTheirFrames() throws IOException {
        String loop = "java/lang/Thread.run;niolab/server/base/EventLoop.run;niolab/server/lt/LevelTriggeredServer.accept;";
        Files.writeString(results.resolve("lt-short.collapsed"), loop + "sun/nio/ch/ServerSocketChannelImpl.accept;accept 20\n"
                + loop + "java/nio/channels/spi/AbstractSelectableChannel.configureBlocking;fcntl 10\n"
                + loop + "sun/nio/ch/SocketChannelImpl.setOption;setsockopt 5\n"
                + "java/lang/Thread.run;sun/nio/ch/SelectorImpl.select;sun/nio/ch/EPollSelectorImpl.processUpdateQueue;epoll_ctl 5\n"
                + "java/lang/Thread.run;sun/nio/ch/SelectorImpl.select;sun/nio/ch/SelectorImpl.processDeregisterQueue;close 10\n"
                + "java/lang/Thread.run;sun/nio/ch/SelectorImpl.select;epoll_wait 50\n");
        gzip(results.resolve("lt-short.collapsed.gz"), results.resolve("lt-short.collapsed"));
        Files.delete(results.resolve("lt-short.collapsed"));
        Files.writeString(results.resolve("lt-short.json"), Files.readString(results.resolve("lt-keepalive.json")));
        ProfileExperiment.LtShort lt = analyse().ltShort();
        // 100 samples, lt's median CPU 6.2 µs per request (the sample run): accept, configureBlocking, setOption, register, close
        assertThat(lt.samples()).isEqualTo(100);
        assertThat(lt.cpu()).isEqualTo(6.2);
        assertThat(lt.shares()).containsExactly(0.2, 0.1, 0.05, 0.05, 0.1);
        assertThat(lt.sum()).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void aModeNotProfiledHasNoServers() {
        ProfileExperiment.Findings f = analyse();
        assertThat(f.data().modes().get(3)).isEmpty();
        assertThat(f.largest().get(3)).isEmpty();
        assertThat(f.ltShort()).isNull();
    }
}

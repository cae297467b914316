package niolab.reports;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code bench-summary DIR}: {@code make bench-http}'s medians. Reads {@code DIR/samples.csv}
 * (one row per run: server, mode, round, tool, requests/s, server CPU µs per request, errors)
 * and writes {@code DIR/summary.csv}: per server and mode, the medians over the rounds, the
 * echo-bench/wrk ratio, the ratios to the server's Netty peer, and the errors summed.
 */
@Command(name = "bench-summary", mixinStandardHelpOptions = true,
        description = "Writes DIR/summary.csv (medians over the rounds, ratios) from DIR/samples.csv.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:summary.csv written", "1:samples.csv cannot be read or summary.csv written", "2:bad usage"})
final class BenchSummary implements Callable<Integer> {
    static final String HEADER = "server,mode,wrk_requests_per_s,echo_bench_requests_per_s,echo_bench_over_wrk,"
            + "server_cpu_us_per_req_wrk,server_cpu_us_per_req_echo_bench,netty_peer,wrk_requests_over_netty,"
            + "cpu_per_req_over_netty,wrk_errors,echo_bench_errors";
    /** The Netty server each hand-written one is compared with: the same responder over Netty's transport. */
    private static final Map<String, String> PEER = Map.of("lt", "netty-nio", "et", "netty-epoll");

    @Parameters(paramLabel = "DIR", description = "make bench-http's results folder (RESULTS_DIR).")
    private Path dir;

    @Override
    public Integer call() throws IOException {
        Csv samples = new Results(dir).csv("samples.csv");
        Files.writeString(dir.resolve("summary.csv"), summary(samples), StandardCharsets.UTF_8);
        return 0;
    }

    /** Servers and modes in the order the rounds ran them (their first appearance). */
    static String summary(Csv samples) {
        Set<String> servers = new LinkedHashSet<>(), modes = new LinkedHashSet<>();
        for (Map<String, String> row : samples.rows()) {
            servers.add(row.get("server"));
            modes.add(row.get("mode"));
        }
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (String s : servers) {
            for (String m : modes) {
                double w = median(samples, s, m, "wrk", "requests_per_s"), e = median(samples, s, m, "echo-bench", "requests_per_s");
                double c = median(samples, s, m, "wrk", "server_cpu_us_per_req");
                double ce = median(samples, s, m, "echo-bench", "server_cpu_us_per_req");
                String peer = PEER.getOrDefault(s, ""), overPeer = "", cpuOverPeer = "";
                if (servers.contains(peer)) {
                    double pw = median(samples, peer, m, "wrk", "requests_per_s");
                    double pc = median(samples, peer, m, "wrk", "server_cpu_us_per_req");
                    overPeer = pw > 0 ? fixed(w / pw, 3) : "";
                    cpuOverPeer = pc > 0 ? fixed(c / pc, 3) : "";
                }
                sb.append(String.join(",", s, m, fixed(w, 0), fixed(e, 0), w > 0 ? fixed(e / w, 3) : "", fixed(c, 2),
                        fixed(ce, 2), peer, overPeer, cpuOverPeer, errors(samples, s, m, "wrk"), errors(samples, s, m, "echo-bench")))
                        .append('\n');
            }
        }
        return sb.toString();
    }

    private static double median(Csv samples, String server, String mode, String tool, String column) {
        return Stats.median(samples.numbers(column, "server", server, "mode", mode, "tool", tool));
    }

    private static String errors(Csv samples, String server, String mode, String tool) {
        return Long.toString((long) Stats.sum(samples.numbers("errors", "server", server, "mode", mode, "tool", tool)));
    }

    /**
     * {@code v} with {@code places} decimals as printf and awk round it (the exact binary value,
     * ties to even; String.format rounds a shortest decimal half up and can differ in the last
     * digit), so summaries compare byte for byte whichever tool wrote them; empty when not measured.
     */
    static String fixed(double v, int places) {
        return Double.isFinite(v) ? new BigDecimal(v).setScale(places, RoundingMode.HALF_EVEN).toPlainString() : "";
    }
}

package niolab.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import niolab.bench.report.JsonReport;
import niolab.bench.report.ResultTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code echo-bench [options] [host:port]}: drives an echo server and prints the seed's table.
 *
 * <pre>
 *   echo-bench                              # 100 serial short-connection requests to 127.0.0.1:9988
 *   echo-bench --runs 3 --warmup 100 --json out.json 127.0.0.1:9988
 * </pre>
 */
@Command(name = "echo-bench", mixinStandardHelpOptions = true, version = "NIO Lab echo-bench 0.1",
        description = "Load generator for the NIO Lab echo servers: latency table per run, errors by class.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every request echoed exactly", "1:errors, or the target is down", "2:bad flags"})
public final class EchoBench implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "host:port", defaultValue = "127.0.0.1:9988",
            description = "Target (default: ${DEFAULT-VALUE}).")
    String target;

    @Option(names = {"-n", "--requests"}, defaultValue = "100", description = "Requests per run (default: ${DEFAULT-VALUE}).")
    long requests;

    @Option(names = "--runs", defaultValue = "1", description = "Runs; the table has a row per run and a mean row (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", defaultValue = "0", description = "Requests sent first and not counted (default: ${DEFAULT-VALUE}).")
    long warmup;

    @Option(names = "--size", defaultValue = "64", description = "Payload bytes per request (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the random payload (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--timeout", defaultValue = "5s", converter = Durations.class,
            description = "Bound on every connect and read (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the configuration and every run as JSON.")
    Path json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        validate();
        InetSocketAddress address = parseTarget(target);
        if (address.isUnresolved()) {
            err().println("error: cannot resolve host '" + address.getHostString() + "'");
            return 1;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "# echo-bench -> %s: serial short connections, %d requests x %d runs, %d-byte payload%n",
                target, requests, runs, size);
        SerialClient client = new SerialClient(address, Payload.random(size, seed), (int) timeout.toMillis());
        try {
            if (warmup > 0) {
                RunResult w = measure(client, 0, warmup);
                out.printf(Locale.ROOT, "warmup: %d requests, %.1f qps, p50 %d us (not counted)%n",
                        w.ok(), w.qps(), w.percentile(50));
            }
            List<RunResult> results = new ArrayList<>();
            ErrorCounts errors = new ErrorCounts();
            for (int run = 1; run <= runs; run++) {
                RunResult r = measure(client, run, requests);
                results.add(r);
                errors.addAll(r.errors);
            }
            out.print(ResultTable.render(results));
            if (errors.total() > 0) out.println("errors: " + errors.summary());
            out.flush();
            if (json != null) writeJson(results);
            return errors.total() == 0 ? 0 : 1;
        } catch (TargetDownException e) {
            out.flush();
            err().println("error: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err().println("error: cannot write " + json + ": " + e.getMessage());
            return 1;
        }
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    private RunResult measure(SerialClient client, int run, long n) {
        RunResult r = new RunResult(run);
        client.run(n, r);
        if (r.ok() == 0 && r.errors.get(ErrorClass.REFUSED) == r.attempted() && r.attempted() > 0) {
            throw new TargetDownException(target);
        }
        return r;
    }

    private void writeJson(List<RunResult> results) throws IOException {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("target", target);
        config.put("mode", "serial-short");
        config.put("requests", Long.toString(requests));
        config.put("runs", Integer.toString(runs));
        config.put("warmup", Long.toString(warmup));
        config.put("size", Integer.toString(size));
        config.put("seed", Long.toString(seed));
        config.put("timeout_ms", Long.toString(timeout.toMillis()));
        Files.writeString(json, JsonReport.render(config, results) + "\n", StandardCharsets.UTF_8);
    }

    private void validate() {
        if (requests < 1) throw usage("--requests must be at least 1");
        if (runs < 1) throw usage("--runs must be at least 1");
        if (warmup < 0) throw usage("--warmup must not be negative");
        if (size < 1) throw usage("--size must be at least 1 byte");
        if (timeout.isZero() || timeout.isNegative()) throw usage("--timeout must be positive");
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** {@code host:port}, {@code [v6]:port}, or a bare port meaning 127.0.0.1. */
    InetSocketAddress parseTarget(String t) {
        String host = "127.0.0.1";
        String port = t;
        int colon = t.lastIndexOf(':');
        if (colon >= 0) {
            host = t.substring(0, colon);
            port = t.substring(colon + 1);
            if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        }
        try {
            int p = Integer.parseInt(port);
            if (p < 1 || p > 65535) throw usage("port out of range in '" + t + "'");
            return new InetSocketAddress(host, p);
        } catch (NumberFormatException e) {
            throw usage("'" + t + "' is not host:port");
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new EchoBench()).execute(args));
    }
}

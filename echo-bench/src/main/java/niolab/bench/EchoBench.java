package niolab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import niolab.bench.report.CsvReport;
import niolab.bench.report.JsonReport;
import niolab.bench.report.ResultTable;
import niolab.common.AtomicFile;
import niolab.common.Durations;
import niolab.common.results.BenchReport;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code echo-bench [options] [host:port]}: drives an echo server and prints the seed's table.
 *
 * <pre>
 *   echo-bench                              # 100 serial short-connection requests to 127.0.0.1:9988
 *   echo-bench --runs 3 --warmup 100 --json out.json 127.0.0.1:9988
 *   echo-bench -c 50 --keepalive --duration 10s --warmup 2s --server-pid $PID
 *   echo-bench -c 20 --keepalive --rate 5000 --duration 30s --hdr out.hgrm
 *   echo-bench --protocol http -c 50 --pipeline 16 --duration 5s 127.0.0.1:8080
 *   echo-bench -c 50 --keepalive --rate 20000 --duration 60s --start-at 1767268800 --hlog a.hlog --tag a 10.0.0.1:9988
 *   echo-bench merge a.hlog b.hlog           # MergeLogs: one table for several generators
 * </pre>
 */
@Command(name = "echo-bench", mixinStandardHelpOptions = true, version = "NIO Lab echo-bench 0.2",
        sortOptions = false, subcommands = {MergeLogs.class, Compare.class}, scope = CommandLine.ScopeType.INHERIT,
        description = "Load generator for the NIO Lab echo and HTTP /ping servers: latency table per run, errors by class, "
                + "CPU per request of client and server.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the run completed with an error rate within --max-error-rate",
                "1:more errors than that, or the target is down", "2:bad flags, or a --start-at time already past"})
public final class EchoBench implements Callable<Integer> {
    /** --hlog without --interval: one histogram a second, HdrHistogram's usual log interval. */
    private static final long LOG_INTERVAL_NANOS = 1_000_000_000L;

    @Parameters(arity = "0..1", paramLabel = "host:port", defaultValue = "127.0.0.1:9988",
            description = "Target (default: ${DEFAULT-VALUE}).")
    String target;

    @CommandLine.Mixin
    LoadOptions loadOptions;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    RunLength length;

    @Option(names = "--warmup", defaultValue = "0", paramLabel = "N|T",
            description = "Requests (e.g. 1000) or time (e.g. 2s) sent first, reported on their own line, not counted (default: ${DEFAULT-VALUE}).")
    String warmup;

    @Option(names = "--cold-client",
            description = "Serial runs: skip the client's own warm-up (by default its code path is first run against an echo sink "
                    + "in this JVM, never the target), so that the first requests also measure a cold client.")
    boolean coldClient;

    @Option(names = "--runs", defaultValue = "1", description = "Runs; the table has a row per run and a mean row (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the random payload (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--server-pid", paramLabel = "PID",
            description = "Also report the server's CPU per request (/proc/PID/stat of PID and its descendants).")
    long serverPid;

    @Option(names = "--max-error-rate", paramLabel = "F", defaultValue = "0",
            description = "Exit 0 when errors/attempted is at most F, e.g. 0.01 (default: ${DEFAULT-VALUE}).")
    double maxErrorRate;

    @Option(names = "--interval", converter = Durations.class,
            description = "Print throughput and p99 per interval (e.g. 1s), and keep the series in --json; also the "
                    + "length of each --hlog interval.")
    Duration interval;

    @Option(names = "--json", paramLabel = "FILE", description = "Write configuration, environment and every run as JSON (echo-bench/JSON-SCHEMA.md).")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write a CSV row per run.")
    Path csv;

    @Option(names = "--hdr", paramLabel = "FILE",
            description = "Write the latency distribution of all runs in HdrHistogram .hgrm text, in milliseconds "
                    + "(as wrk2 does); under --rate the uncorrected one goes to FILE with .uncorrected before the extension.")
    Path hdr;

    @Option(names = "--hlog", paramLabel = "FILE",
            description = "Write each interval's latency histogram (--interval, default 1s) as an HdrHistogram interval log, "
                    + "in microseconds, tagged --tag; under --rate the corrected histograms are tagged NAME and the "
                    + "uncorrected ones NAME-uncorrected. 'echo-bench merge' combines the logs of several generators.")
    Path hlog;

    @Option(names = "--tag", paramLabel = "NAME", description = "This generator's tag in --hlog (default: the host name).")
    String tag;

    @Option(names = "--start-at", paramLabel = "TIME", converter = StartAt.class,
            description = "Wait until this wall-clock time (ISO-8601 with a zone, e.g. 2026-05-01T12:00:00Z, or seconds "
                    + "since the epoch) before the warm-up, so that generators on several hosts start together.")
    Instant startAt;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        validate();
        if (startAt != null && !startAt.isAfter(Instant.now())) {
            err().println("error: --start-at " + startAt + " is in the past (it is now " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ")");
            return 2;
        }
        InetSocketAddress address = parseTarget(target);
        if (address.isUnresolved()) {
            err().println("error: cannot resolve host '" + address.getHostString() + "'");
            return 1;
        }
        PrintWriter out = spec.commandLine().getOut();
        boolean clientWarmup = !coldClient && loadOptions.serial();
        LoadSpec load = loadOptions.spec(address, target, seed, SerialSocket.Kind.forRun(clientWarmup || !"0".equals(warmup.trim())));
        ClientWarmup.Done clientWarm = null;
        if (clientWarmup) {
            try {
                clientWarm = ClientWarmup.run(load);
            } catch (IOException e) {
                err().println("error: the client's own warm-up could not start its echo sink: " + e.getMessage());
                return 1;
            }
        }
        out.printf(Locale.ROOT, "# echo-bench -> %s: %s, %s x %d runs, %s%s%n",
                target, load.describe(), duration() != null ? Durations.format(duration()) : requests() + " requests", runs,
                loadOptions.protocol == WireProtocol.HTTP ? "HTTP GET " + loadOptions.path : loadOptions.size + "-byte payload",
                !load.serial() ? "" : clientWarm == null ? "; cold client (--cold-client)"
                        : String.format(Locale.ROOT, "; client warmed by %d requests against its own in-process echo sink (%.2f s), "
                                + "never the target", clientWarm.requests(), clientWarm.seconds()));
        out.flush();
        PrintStream progress = System.console() != null ? System.err : null;
        long intervalNanos = interval != null ? interval.toNanos() : hlog != null ? LOG_INTERVAL_NANOS : 0;
        try (IntervalLog log = hlog == null ? null : new IntervalLog(hlog, logTag())) {
            LoadRun runner = new LoadRun(load, intervalNanos, serverPid, progress, log);
            if (!load.serial()) probe(address);
            if (startAt != null) {
                out.println("# waiting until " + startAt);
                out.flush();
                StartAt.sleepUntil(startAt);
            }
            RunResult warm = null;
            if (!"0".equals(warmup.trim())) {
                warm = measure(new LoadRun(load, 0, serverPid, progress), 0, warmupRequests(), warmupNanos());
                out.printf(Locale.ROOT, "warmup: %d requests, %.1f qps, p50 %d us, %.3f s (not counted)%s%n",
                        warm.ok(), warm.qps(), warm.percentile(50), warm.elapsedSeconds(),
                        warm.errors.total() > 0 ? ", errors: " + warm.errors.summary() : "");
            }
            List<RunResult> results = new ArrayList<>();
            ErrorCounts errors = new ErrorCounts();
            long attempted = 0;
            for (int run = 1; run <= runs; run++) {
                RunResult r = measure(runner, run, requests(), duration() == null ? 0 : duration().toNanos());
                results.add(r);
                errors.addAll(r.errors);
                attempted += r.attempted();
            }
            if (load.rate > 0) {
                out.println("corrected (latency from each request's intended start: coordinated omission corrected):");
                out.print(ResultTable.render(results));
                out.println("uncorrected (latency from the actual send: what a closed-loop tool would report):");
                out.print(ResultTable.render(results, true));
                out.print(schedule(results, load));
            } else {
                out.print(ResultTable.render(results));
            }
            if (interval != null) out.print(intervals(results));
            out.println(cpu(results));
            if (errors.total() > 0) out.println("errors: " + errors.summary());
            if (errors.get(ErrorClass.PORTS) > 0) out.print(portsAdvice(errors.get(ErrorClass.PORTS), results));
            out.flush();
            if (json != null) AtomicFile.write(json, JsonReport.render(config(load, clientWarm), warm, results) + "\n");
            if (csv != null) AtomicFile.write(csv, CsvReport.render(results));
            if (hdr != null) writeHdr(results, load.rate > 0);
            long ok = attempted - errors.total();
            boolean within = attempted > 0 && ok > 0 && errors.total() <= maxErrorRate * attempted;
            return within ? 0 : 1;
        } catch (TargetDownException e) {
            out.flush();
            err().println("error: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            out.flush();
            err().println("error: cannot write a report: " + e.getMessage());
            return 1;
        }
    }


    /** {@code --tag}, or the host name: generators on several hosts get distinct tags by default. */
    private String logTag() {
        return tag != null ? tag : JsonReport.environment().host();
    }

    private long requests() {
        return length == null || length.requests == null ? RunLength.DEFAULT_REQUESTS : length.requests;
    }

    /** The run's length in time, or null when it is a number of requests. */
    private Duration duration() {
        return length == null ? null : length.duration;
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    private RunResult measure(LoadRun runner, int run, long n, long nanos) {
        RunResult r = runner.run(run, n, nanos);
        if (r.ok() == 0 && r.errors.get(ErrorClass.REFUSED) == r.attempted() && r.attempted() > 0) {
            throw new TargetDownException(target);
        }
        return r;
    }

    /** One blocking connect before a concurrent run, so a missing server is one line, not a storm of errors. */
    private void probe(InetSocketAddress address) {
        try (Socket s = new Socket()) {
            s.connect(address, (int) Math.max(1, loadOptions.timeout.toMillis()));
        } catch (ConnectException e) {
            if (String.valueOf(e.getMessage()).contains("refused")) throw new TargetDownException(target);
        } catch (IOException e) {
            // anything else shows up, classified, in the run itself
        }
    }

    private long warmupRequests() {
        String w = warmup.trim();
        return w.chars().allMatch(Character::isDigit) ? Long.parseLong(w) : Long.MAX_VALUE;
    }

    private long warmupNanos() {
        String w = warmup.trim();
        return w.chars().allMatch(Character::isDigit) ? 0 : Durations.parse(w).toNanos();
    }

    private static String schedule(List<RunResult> results, LoadSpec load) {
        StringBuilder sb = new StringBuilder();
        for (RunResult r : results) {
            double achieved = r.elapsedNanos == 0 ? 0 : r.attempted() / r.elapsedSeconds();
            sb.append(String.format(Locale.ROOT, "schedule: run %d: target %.1f/s, achieved %.1f/s; %d requests started more than 1 ms late (max lag %.1f ms)%s%n",
                    r.run, load.rate, achieved, r.late, r.maxLagNanos / 1e6,
                    r.late > 0 ? ": the client fell behind its schedule (the corrected latencies include the delay)" : ""));
        }
        return sb.toString();
    }

    private static String intervals(List<RunResult> results) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-6s %8s %10s %8s %8s%n", "run", "t", "qps", "p99", "errors"));
        for (RunResult r : results) {
            for (RunResult.Interval i : r.intervals) {
                sb.append(String.format(Locale.ROOT, "%-6d %8.1f %10.1f %8d %8d%n", r.run, i.endSeconds, i.qps(), i.p99Us, i.errors));
            }
        }
        return sb.toString();
    }

    /** Mean over runs of the CPU each side spent per successful request. */
    private String cpu(List<RunResult> results) {
        double client = 0;
        double threadsCpu = 0;
        double server = 0;
        for (RunResult r : results) {
            client += r.clientCpuUsPerRequest() / results.size();
            threadsCpu += r.clientThreadCpuUsPerRequest() / results.size();
            server += r.serverCpuUsPerRequest() / results.size();
        }
        String s = String.format(Locale.ROOT, "cpu: client %s us/request (worker threads %s)", us(client), us(threadsCpu));
        if (serverPid > 0) {
            s += Double.isNaN(server)
                    ? ", server unknown (cannot read /proc/" + serverPid + "/stat)"
                    : String.format(Locale.ROOT, ", server %s us/request (pid %d and descendants, 10 ms ticks)", us(server), serverPid);
        }
        return s;
    }

    private static String us(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f", v) : "?";
    }

    private static String portsAdvice(long failures, List<RunResult> results) {
        long tw = results.get(results.size() - 1).timeWait;
        String range = Proc.localPortRange();
        return String.format(Locale.ROOT,
                "ports exhausted: %d connects failed with EADDRNOTAVAIL (Cannot assign requested address); %s sockets in TIME-WAIT "
                        + "(/proc/net/sockstat), local port range %s.%n"
                        + "  The side that closes first keeps each connection in TIME-WAIT for 60 s, holding its port. Remedies: "
                        + "--keepalive (reuse connections); sysctl net.ipv4.tcp_tw_reuse=1 (reuse TIME-WAIT ports for new "
                        + "outgoing connections); --linger0 (close with RST, no TIME-WAIT: a lab trick, it can lose data); "
                        + "a wider net.ipv4.ip_local_port_range.%n",
                failures, tw < 0 ? "unknown" : Long.toString(tw), range == null ? "unknown" : range);
    }

    private BenchReport.Config config(LoadSpec load, ClientWarmup.Done clientWarm) {
        Duration duration = duration();
        return new BenchReport.Config(target, load.codec.name(), loadOptions.protocol == WireProtocol.HTTP ? loadOptions.path : null,
                load.serial() ? "serial-short" : load.keepAlive ? (load.pipeline > 1 ? "pipeline" : "keepalive") : "short",
                load.connections, load.serial() ? 1 : load.threads, load.keepAlive, load.pipeline,
                duration == null ? (Long) requests() : null, duration == null ? null : duration.toMillis() / 1000.0, warmup.trim(),
                load.rate, runs, clientWarm == null ? null : clientWarm.requests(), loadOptions.size, seed,
                loadOptions.timeout.toMillis(), interval == null ? null : interval.toMillis() / 1000.0, load.linger0, maxErrorRate,
                serverPid > 0 ? serverPid : null, hlog == null ? null : hlog.toString(), hlog == null ? null : logTag(),
                startAt == null ? null : startAt.toString());
    }

    private void writeHdr(List<RunResult> results, boolean rated) throws IOException {
        writeHdr(hdr, results, false);
        if (rated) {
            String name = hdr.getFileName().toString();
            int dot = name.lastIndexOf('.');
            String other = dot > 0 ? name.substring(0, dot) + ".uncorrected" + name.substring(dot) : name + ".uncorrected";
            writeHdr(hdr.resolveSibling(other), results, true);
        }
    }

    private static void writeHdr(Path file, List<RunResult> results, boolean uncorrected) throws IOException {
        Histogram all = new Histogram(3);
        for (RunResult r : results) all.add(uncorrected ? r.uncorrectedUs : r.latencyUs);
        try (AtomicFile f = AtomicFile.create(file)) {
            PrintStream ps = new PrintStream(f.out(), false, StandardCharsets.UTF_8);
            all.outputPercentileDistribution(ps, 1000.0); // recorded in µs, written in ms
            ps.flush();
            if (ps.checkError()) throw new IOException("cannot write " + file);
            f.commit();
        }
    }

    private void validate() {
        if (requests() < 1) throw usage("--requests must be at least 1");
        if (duration() != null && (duration().isZero() || duration().isNegative())) throw usage("--duration must be positive");
        if (runs < 1) throw usage("--runs must be at least 1");
        String problem = loadOptions.problem();
        if (problem != null) throw usage(problem);
        if (maxErrorRate < 0 || maxErrorRate > 1) throw usage("--max-error-rate must be between 0 and 1");
        if (interval != null && interval.toMillis() < 100) throw usage("--interval must be at least 100ms");
        if (tag != null && hlog == null) throw usage("--tag names this generator in --hlog: give --hlog FILE too");
        if (tag != null && !tag.matches("[^\\s,]+")) throw usage("--tag must not contain spaces or commas (the log's separators), not '" + tag + "'");
        String w = warmup.trim();
        if (!w.chars().allMatch(Character::isDigit)) {
            try {
                if (Durations.parse(w).isNegative()) throw usage("--warmup must not be negative");
            } catch (CommandLine.TypeConversionException e) {
                throw usage("--warmup takes a number of requests or a time such as 2s, not '" + warmup + "'");
            }
        }
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

    /** {@code --requests N} or {@code --duration T}: picocli rejects both at once. */
    static final class RunLength {
        static final long DEFAULT_REQUESTS = 100;
        static final String BOTH = "--requests and --duration exclude each other";

        @Option(names = {"-n", "--requests"}, description = "Requests per run (default: " + DEFAULT_REQUESTS + ").")
        Long requests;

        @Option(names = {"-d", "--duration"}, converter = Durations.class,
                description = "Run for this long instead of a number of requests (e.g. 30s).")
        Duration duration;
    }

    /**
     * The command line as main runs it: picocli's checks, with the lab's message when both run
     * lengths are given ({@link RunLength} is the only exclusive group).
     */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new EchoBench());
        CommandLine.IParameterExceptionHandler picocliDefault = cl.getParameterExceptionHandler();
        cl.setParameterExceptionHandler((e, args) -> {
            if (e.getCommandLine().getCommand() instanceof Compare) {
                // compare's mistakes are one line: its help is long, and the servers' list is easy to get wrong
                e.getCommandLine().getErr().println("error: " + e.getMessage() + " (echo-bench compare --help)");
                return 2;
            }
            return picocliDefault.handleParseException(e instanceof CommandLine.MutuallyExclusiveArgsException
                    ? new CommandLine.ParameterException(e.getCommandLine(), RunLength.BOTH) : e, args);
        });
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}

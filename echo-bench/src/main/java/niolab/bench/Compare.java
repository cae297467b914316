package niolab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import niolab.common.Durations;
import niolab.common.results.BenchComparison;
import niolab.common.results.ResultsJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code echo-bench compare A=host:port B=host:port ...}: compares servers the way a shared,
 * drifting machine allows. Many short slices; each round visits every server once, in a fresh
 * random order, so that neither a slot nor a trend favours one; each round's ratio to the first
 * server cancels what the machine did to both in that round; the median of those ratios gets a
 * 95% interval, and the verdict may be "no difference this run can resolve".
 *
 * <pre>
 *   echo-bench compare -c 50 -k a=127.0.0.1:9988,pid=$A b=127.0.0.1:9989,pid=$B
 *   echo-bench compare --rounds 30 --slice 1s --seed 42 --json cmp.json -c 50 -k lt=:9988 et=:9989
 *   echo-bench compare --load wrk --protocol http -c 50 -k lt=127.0.0.1:8080 netty=127.0.0.1:8081
 * </pre>
 */
@Command(name = "compare", sortOptions = false,
        description = "Compare servers in --rounds rounds of --slice slices, each round in a fresh random order; print per server "
                + "the median rate, its range, CPU per request and p99, and against the first server the median of the per-round "
                + "ratios with a 95%% interval and a verdict in words.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every server served to the end", "1:a server died mid-run (named; its slices are kept), or wrk or a report failed",
                "2:bad flags or a bad server"})
final class Compare implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "NAME=HOST:PORT[,pid=PID]",
            description = "The servers, the first the baseline; with pid=PID, the server's CPU per request (/proc: the process, its "
                    + "threads and its descendants, 10 ms ticks).")
    List<String> servers;

    @Option(names = "--rounds", defaultValue = "20", description = "Rounds; each visits every server once (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--slice", defaultValue = "1s", converter = Durations.class, description = "Each server's time per round (default: ${DEFAULT-VALUE}).")
    Duration slice;

    @Option(names = "--warmup", defaultValue = "2s", converter = Durations.class,
            description = "Load on each server before the first round, not measured; 0 for none (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--seed", description = "Seed of the rounds' order; printed, to repeat a run (default: random).")
    Long seed;

    @Option(names = "--load", defaultValue = "echo-bench", paramLabel = "echo-bench|wrk",
            description = "What drives each slice: echo-bench's own engine, or wrk (HTTP; -t from --threads, default 1) (default: ${DEFAULT-VALUE}).")
    String load;

    @Option(names = "--wrk", defaultValue = "wrk", paramLabel = "PATH", description = "The wrk binary for --load wrk (default: ${DEFAULT-VALUE}).")
    String wrk;

    @Option(names = "--wrk-script", paramLabel = "FILE",
            description = "With --load wrk and --pipeline D: the Lua script that pipelines (scripts/wrk-pipeline.lua), given D.")
    Path wrkScript;

    @Option(names = "--json", paramLabel = "FILE", description = "Write every slice and the summary as JSON (echo-bench/JSON-SCHEMA.md).")
    Path json;

    @CommandLine.Mixin
    LoadOptions loadOptions;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<CompareTarget> targets = new ArrayList<>();
        String problem = problem(targets);
        if (problem != null) {
            err.println("error: " + problem);
            return 2;
        }
        long orderSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, 1L << 40);
        SliceLoad slices = load.equals("wrk") ? new WrkSliceLoad(wrk, loadOptions, wrkScript) : new SliceLoad.Engine(loadOptions);
        String header = String.format(Locale.ROOT, "# echo-bench compare: %d servers, %d rounds of %s slices, each round in a fresh random order "
                + "(seed %d: --seed %d repeats it)%n# load: %s; warm-up %s per server%n", targets.size(), rounds, Durations.format(slice),
                orderSeed, orderSeed, slices.describe(), Durations.format(warmup));
        out.print(header);
        out.flush();
        PrintStream progress = System.console() != null ? System.err : null;
        List<Slice> done = new ArrayList<>();
        Map<String, String> deaths = new LinkedHashMap<>();
        try {
            for (CompareTarget t : targets) {
                if (progress != null) progress.printf(Locale.ROOT, "\rwarm-up %-30s", t.name());
                slices.warm(t, warmup.toNanos());
            }
            run(targets, slices, orderSeed, done, deaths, progress);
        } catch (IOException e) {
            clear(progress);
            err.println("error: " + e.getMessage());
            return 1;
        }
        CompareReport report = new CompareReport(targets, done, deaths);
        out.print(report.text());
        out.flush();
        for (Map.Entry<String, String> d : deaths.entrySet()) err.println("error: server " + d.getKey() + " " + d.getValue());
        if (json != null) {
            try {
                Files.writeString(json, ResultsJson.compact(report.json(config(targets, orderSeed))) + "\n", StandardCharsets.UTF_8);
            } catch (IOException e) {
                err.println("error: cannot write " + json + ": " + e.getMessage());
                return 1;
            }
        }
        return deaths.isEmpty() ? 0 : 1;
    }

    /** The rounds: every live server once per round, in a fresh order; a server that dies is named and visited no more. */
    private void run(List<CompareTarget> targets, SliceLoad slices, long orderSeed, List<Slice> done, Map<String, String> deaths,
            PrintStream progress) throws IOException {
        SplittableRandom order = new SplittableRandom(orderSeed);
        int[] visit = new int[targets.size()];
        for (int round = 1; round <= rounds; round++) {
            shuffle(visit, order);
            for (int position = 0; position < visit.length; position++) {
                CompareTarget t = targets.get(visit[position]);
                if (deaths.containsKey(t.name())) continue;
                if (progress != null) progress.printf(Locale.ROOT, "\rround %d/%d  %-30s", round, rounds, t.name());
                if (!t.pidAlive()) {
                    deaths.put(t.name(), String.format(Locale.ROOT, "(%s) died before round %d: its pid %d is gone; its %d slices are kept",
                            t.hostPort(), round, t.pid(), count(done, t)));
                    continue;
                }
                Slice s = slices.run(t, round, position, slice.toNanos());
                done.add(s);
                if (s.refused()) {
                    deaths.put(t.name(), String.format(Locale.ROOT, "(%s) died in round %d: every connect was refused; its %d slices are kept",
                            t.hostPort(), round, count(done, t) - 1));
                }
            }
        }
        clear(progress);
    }

    private static int count(List<Slice> done, CompareTarget t) {
        int n = 0;
        for (Slice s : done) {
            if (s.server().equals(t.name())) n++;
        }
        return n;
    }

    /**
     * A fresh random permutation of 0..n-1 (Fisher-Yates), from the seeded stream. A fixed order
     * would hand one server the first slot, and whatever the machine does to the first slot of a
     * round, every time (exp-noise measures that bias).
     */
    static void shuffle(int[] visit, SplittableRandom random) {
        for (int i = 0; i < visit.length; i++) visit[i] = i;
        // BEGIN SOLUTION round-order
        // each slot swaps with one at or below it, drawn uniformly: every one of the n! orders equally likely
        for (int i = visit.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = visit[i];
            visit[i] = visit[j];
            visit[j] = t;
        }
        // END SOLUTION
    }

    private static void clear(PrintStream progress) {
        if (progress == null) return;
        progress.print("\r" + " ".repeat(79) + "\r");
        progress.flush();
    }

    /** The first thing wrong with the command line, as one line; fills {@code targets} when all is well. */
    private String problem(List<CompareTarget> targets) {
        String options = loadOptions.problem();
        if (options != null) return options;
        if (rounds < 2) return "--rounds must be at least 2 (" + CompareReport.MIN_PAIRED_ROUNDS + " or more give an interval)";
        if (slice.toMillis() < 100) return "--slice must be at least 100ms";
        if (warmup.isNegative()) return "--warmup must not be negative";
        if (!load.equals("echo-bench") && !load.equals("wrk")) return "--load must be echo-bench or wrk, not '" + load + "'";
        if (load.equals("wrk")) {
            if (loadOptions.protocol != Protocol.HTTP) return "--load wrk drives HTTP: add --protocol http";
            if (slice.toMillis() % 1000 != 0) return "--load wrk takes whole seconds for --slice, not " + Durations.format(slice);
            if (loadOptions.rate > 0) return "--load wrk runs a closed loop: --rate needs --load echo-bench";
            if (loadOptions.pipeline > 1 && wrkScript == null) return "--pipeline with --load wrk needs --wrk-script FILE (scripts/wrk-pipeline.lua)";
        } else if (wrkScript != null) {
            return "--wrk-script needs --load wrk";
        }
        Set<String> names = new HashSet<>();
        for (String s : servers) {
            CompareTarget t;
            try {
                t = CompareTarget.parse(s);
            } catch (CompareTarget.BadTarget e) {
                return e.getMessage();
            }
            if (!names.add(t.name())) return "server name '" + t.name() + "' is given twice";
            if (!t.pidAlive()) return "server " + t.name() + ": no process " + t.pid();
            targets.add(t);
        }
        return null;
    }

    private BenchComparison.Config config(List<CompareTarget> targets, long orderSeed) {
        List<String> given = new ArrayList<>();
        for (CompareTarget t : targets) given.add(t.name() + "=" + t.hostPort());
        return new BenchComparison.Config(String.join(" ", given), load, loadOptions.protocol.toString(),
                loadOptions.protocol == Protocol.HTTP ? loadOptions.path : null, loadOptions.connections, loadOptions.threads,
                loadOptions.keepAliveOrPipelined(), loadOptions.pipeline, loadOptions.rate, loadOptions.size, rounds,
                slice.toMillis() / 1000.0, warmup.toMillis() / 1000.0, orderSeed);
    }
}

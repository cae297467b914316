package niolab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import niolab.common.AtomicFile;
import niolab.common.Durations;
import niolab.common.results.BenchComparison;
import niolab.common.results.ResultsJson;
import niolab.common.stats.ForkInterval;
import niolab.common.stats.MedianInterval;
import niolab.common.stats.Plan;
import niolab.common.stats.Sequential;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code echo-bench compare A=... B=...}: compares servers the way a shared, drifting machine
 * allows. Many short slices; each round visits every server once, in a fresh random order, so
 * that neither a slot nor a trend favours one; each round's ratio to the first server cancels
 * what the machine did to both in that round. Servers given as commands are started afresh in
 * each of at least three forks, since a fresh process differs from the last by more than a
 * round from the next ({@link ForkInterval} gives the interval at that level). A verdict needs
 * its whole interval beyond {@code --threshold}, the smallest difference that matters, fixed
 * before the data; each says what its design could detect ({@link niolab.common.stats.Power});
 * {@code --plan} sizes a design from a pilot ({@link Plan}), and {@code --until-decided} adds
 * forks until every verdict decides, its error rate kept under optional stopping ({@link Sequential}).
 *
 * <pre>
 *   echo-bench compare -c 50 -k old='java -jar old.jar --port {port}' new='java -jar new.jar --port {port}'
 *   echo-bench compare --until-decided --max-time 5m -c 50 -k lt='bin/lab-server lt --port {port}' et='bin/lab-server et --port {port}'
 *   echo-bench compare -c 50 -k a=127.0.0.1:9988,pid=$A b=127.0.0.1:9989,pid=$B
 * </pre>
 */
@Command(name = "compare", sortOptions = false,
        description = {"Compare servers in rounds of --slice slices, each round in a fresh random order; print per server the median "
                + "rate, its range, CPU per request and p99, and against the first server each ratio with a 95%% interval, a verdict "
                + "against --threshold and what the design could detect.",
                "",
                "A server given as a command is started afresh in every fork: compare your old and new build in one command, e.g.",
                "  echo-bench compare -c 50 -k \\",
                "      old='java -jar old.jar --port {port}' \\",
                "      new='java -jar new.jar --port {port}'",
                "Each fork starts a fresh process of every command server (setsid sh -c COMMAND, {port} replaced by a free port), in "
                + "a fresh random order, waits for it to listen (--start-timeout), warms them up in another fresh random order, runs --rounds rounds, and stops it "
                + "(SIGTERM to its process group and descendants, then SIGKILL; also when compare is interrupted). Its CPU counts the "
                + "whole process tree (taskset and sh wrappers included). A running server (NAME=HOST:PORT) cannot be restarted: "
                + "its comparison is one fork, whose interval describes those processes only.",
                "",
                "The interval: per fork the median of its per-round ratios; across F >= 3 forks a Student-t 95%% interval of the mean of "
                + "the forks' log-medians with F-1 degrees of freedom, exponentiated back; with one fork the order-statistic interval "
                + "of the rounds' median. The share of the variance between forks is printed: near 1, spend repetitions on forks; near "
                + "0, on rounds.",
                "",
                "The verdict, against --threshold (2%% unless given), chosen before the data as the smallest difference that matters: "
                + "faster or slower only when the whole interval lies beyond 1 ± threshold; the same when it lies inside (with the "
                + "direction its interval shows, if it excludes 1); otherwise undecided. Each verdict states the smallest difference "
                + "its design detects with 90%% power. --aa adds an A/A twin of the baseline as a check of the run, never as the margin.",
                "",
                "Sizing: --plan runs a pilot and prints the forks x rounds (rounds per fork by Kalibera and Jones' rule) and the time "
                + "that 90%% power to call --detect needs. --until-decided --max-time T adds forks until every rate and CPU verdict "
                + "decides: it looks at 3 forks and each time the forks have grown by half (3, 5, 8, 12, 18, ...) or the time is "
                + "spent, and look k uses a two-sided interval of level 1 - 5%%/(k(k+1)), so that the false calls over all looks stay at "
                + "most 5%%."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every server served to the end", "1:a server died mid-run (named; its slices are kept), or wrk or a report failed",
                "2:bad flags or a bad server (one that exits or never listens)",
                "130, 143:stopped by SIGINT or SIGTERM: the verdicts and the JSON are of the slices completed, marked partial"})
final class Compare implements Callable<Integer> {
    /** The A/A twin's name: the baseline's with this suffix, which no given name can hold. */
    static final String AA_SUFFIX = "~aa";
    /** Fewer forks leave the interval across forks with one degree of freedom: t = 12.7, no verdict. */
    static final int MIN_FORKS = Sequential.FIRST;
    static final int MIN_ROUNDS_PER_FORK = 3;
    static final int DEFAULT_FORKS = 5;
    static final int DEFAULT_ROUNDS_PER_FORK = 6;
    static final int DEFAULT_ROUNDS_ONE_FORK = 20;
    static final String DEFAULT_MAX_TIME = "5m";

    @Parameters(arity = "1..*", paramLabel = "NAME=HOST:PORT[,pid=PID]|NAME='COMMAND ... {port}'",
            description = "The servers, the first the baseline. HOST:PORT: a running server; with pid=PID, its CPU per request (/proc: "
                    + "the process, its threads and its descendants, in the scheduler's ns). Any other value (one with a space or {port}, or no "
                    + "':') is a command, started afresh in every fork.")
    List<String> servers;

    @Option(names = "--forks", paramLabel = "F",
            description = "Fresh processes of every command server, each running --rounds rounds; at least " + MIN_FORKS + " (default: "
                    + DEFAULT_FORKS + ", or 3 for --plan's pilot; a running server is one fork).")
    Integer forks;

    @Option(names = "--rounds", paramLabel = "R",
            description = "Rounds per fork, each visiting every server once; at least " + MIN_ROUNDS_PER_FORK + " in forks, "
                    + MedianInterval.MIN_ROUNDS + " in one fork (default: " + DEFAULT_ROUNDS_PER_FORK + " in forks, 3 for --plan, "
                    + DEFAULT_ROUNDS_ONE_FORK + " in one fork).")
    Integer rounds;

    @Option(names = "--slice", defaultValue = "1s", converter = Durations.class, description = "Each server's time per round (default: ${DEFAULT-VALUE}).")
    Duration slice;

    @Option(names = "--warmup", defaultValue = "2s", converter = Durations.class,
            description = "Load on each server before the first round of each fork, not measured; 0 for none (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--threshold", defaultValue = "2%", paramLabel = "X%",
            description = "The smallest difference that matters, fixed before the data: a verdict calls faster or slower only beyond it "
                    + "and the same only within it (default: ${DEFAULT-VALUE}).")
    String threshold;

    @Option(names = "--aa", description = "Also run a second process of the baseline's command (NAME~aa) in every fork, as a check of "
            + "the run: its ratio to the baseline should lie inside the threshold. It never sets the threshold.")
    boolean aa;

    @Option(names = "--plan", description = "Run a pilot (3 forks of 3 rounds unless given) and print the forks x rounds and the time "
            + "that 90%% power to call a --detect difference needs.")
    boolean plan;

    @Option(names = "--detect", paramLabel = "X%", description = "With --plan: the true difference to call with 90%% power (default: twice --threshold).")
    String detect;

    @Option(names = "--until-decided", description = "Add forks of --rounds rounds until every rate and CPU verdict is decided or "
            + "--max-time is spent; each look widens its interval so that the false calls stay at most 5%%.")
    boolean untilDecided;

    @Option(names = "--max-time", paramLabel = "T", converter = Durations.class,
            description = "With --until-decided: the most time to spend (default: " + DEFAULT_MAX_TIME + ").")
    Duration maxTime;

    @Option(names = "--fork-gap", defaultValue = "0", paramLabel = "T", converter = Durations.class,
            description = "A pause between forks, once one fork's servers are stopped and before the next start: forks spread over a "
                    + "wall-clock window, so that the machine's drift over it enters the interval between forks instead of being shared "
                    + "by all of them (default: ${DEFAULT-VALUE}, back to back).")
    Duration forkGap;

    @Option(names = "--start-timeout", defaultValue = "30s", converter = Durations.class,
            description = "How long a command server may take to listen (default: ${DEFAULT-VALUE}).")
    Duration startTimeout;

    @Option(names = "--server-logs", paramLabel = "DIR",
            description = "Keep each command server's output (its ready line, its counters at exit) as DIR/NAME-fork-F.log; "
                    + "by default it is deleted with the run.")
    Path serverLogs;

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

    @CommandLine.Mixin
    RulerOptions rulers;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** A server as given: a running one ({@code endpoint}) or a command to start in every fork. */
    record Given(String name, CompareTarget endpoint, String command) {
        boolean isCommand() {
            return command != null;
        }

        /** What the report shows and the JSON keeps: the HOST:PORT or the command. */
        CompareTarget asGiven() {
            return endpoint != null ? endpoint : new CompareTarget(name, command, null, 0);
        }
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Given> given = new ArrayList<>();
        String problem = problem(given);
        if (problem != null) {
            err.println("error: " + problem);
            return 2;
        }
        double margin = parseThreshold(threshold);
        String twin = twin(given);
        long orderSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, 1L << 40);
        SliceLoad slices = load.equals("wrk") ? new WrkSliceLoad(wrk, loadOptions, wrkScript) : new SliceLoad.Engine(loadOptions);
        out.print(header(given, twin, margin, orderSeed, slices));
        out.flush();
        RunAbort.install();
        PrintStream progress = System.console() != null ? System.err : null;
        List<Slice> done = new ArrayList<>();
        Map<String, String> deaths = new LinkedHashMap<>();
        List<CompareTarget> targets = new ArrayList<>();
        Set<String> commands = new HashSet<>();
        for (Given g : given) {
            targets.add(g.asGiven());
            if (g.isCommand()) commands.add(g.name());
        }
        ForkClock clock = new ForkClock();
        Looks looks = new Looks();
        int code = 0;
        boolean partial = false;
        Path logs = null;
        try {
            if (serverLogs != null) logs = Files.createDirectories(serverLogs);
            else if (given.stream().anyMatch(Given::isCommand)) logs = Files.createTempDirectory("echo-bench-compare-");
            SplittableRandom order = new SplittableRandom(orderSeed);
            long deadline = System.nanoTime() + (untilDecided ? maxTime.toNanos() : 0);
            for (int fork = 1; ; fork++) {
                runFork(fork, given, slices, order, logs, done, deaths, progress, clock);
                if (!untilDecided) {
                    if (fork == forks) break;
                    pause(forkGap);
                    continue;
                }
                boolean timeLeft = System.nanoTime() + forkGap.toNanos() + clock.meanForkNanos() <= deadline && fork < Plan.MAX_FORKS;
                if (looks.due(fork, timeLeft)) {
                    CompareReport now = new CompareReport(targets, commands, done, deaths, margin, twin, looks.level(), null);
                    if (!timeLeft || now.decided()) break;
                    if (progress != null) progress.printf(Locale.ROOT, "\rlook %d at %d forks: undecided, going on%30s", looks.count(), fork, "");
                }
                pause(forkGap);
            }
        } catch (ForkedServer.ServerFailed e) {
            clear(progress);
            if (RunAbort.interrupted()) {
                partial = true;
                code = RunAbort.exitCode();
            } else {
                err.println("error: " + e.getMessage());
                if (done.isEmpty()) return 2;
                code = 1;
            }
        } catch (IOException e) {
            clear(progress);
            err.println("error: " + e.getMessage());
            return 1;
        } finally {
            if (serverLogs == null) deleteLogs(logs);
        }
        double level = untilDecided ? looks.finalLevel() : MedianInterval.LEVEL;
        CompareReport report = new CompareReport(targets, commands, done, deaths, margin, twin, level,
                untilDecided ? looks.describe() : null);
        if (partial) out.print(RunAbort.note(done.size()));
        out.print(report.text());
        if (plan) out.print(report.plan(detect == null ? 2 * margin : parseThreshold(detect), clock));
        out.flush();
        for (Map.Entry<String, String> d : deaths.entrySet()) err.println("error: server " + d.getKey() + " " + d.getValue());
        if (json != null) {
            try {
                String source = spec.commandLine().getParseResult().hasMatchedOption("--threshold") ? "--threshold" : "default";
                BenchComparison written = report.json(config(given, orderSeed, margin, report.forks()), source,
                        untilDecided ? looks.count() : null);
                AtomicFile.write(json, ResultsJson.compact(partial ? written.asPartial() : written) + "\n");
            } catch (IOException e) {
                err.println("error: cannot write " + json + ": " + e.getMessage());
                return 1;
            }
        }
        return code != 0 ? code : deaths.isEmpty() ? 0 : 1;
    }

    /** Where a run that goes on until it decides looks at its intervals ({@link Sequential}): which look it is at, and at what level. */
    static final class Looks {
        private int count;
        private int lastForks;
        private boolean lastForkLooked;

        /** Whether to look after {@code forks} forks: on the schedule, or because no time is left for another fork. */
        boolean due(int forks, boolean timeLeft) {
            lastForkLooked = Sequential.lookDue(forks, lastForks) || !timeLeft && forks >= Sequential.FIRST;
            if (lastForkLooked) {
                count++;
                lastForks = forks;
            }
            return lastForkLooked;
        }

        int count() {
            return count;
        }

        double level() {
            return Sequential.level(Math.max(1, count));
        }

        /** The level of the verdicts printed: this look's, or the next one's when the run stopped between looks. */
        double finalLevel() {
            return Sequential.level(lastForkLooked ? Math.max(1, count) : count + 1);
        }

        String describe() {
            int look = lastForkLooked ? Math.max(1, count) : count + 1;
            return String.format(Locale.ROOT, "look %d of a run until decided: a %s%% interval, so that the false calls over all looks "
                    + "stay at most 5%%", look, niolab.common.stats.Decimals.fixed(Sequential.level(look) * 100, 2));
        }
    }

    /** What forks cost, for --plan and for whether --until-decided has time for another: set-up (start, warm-up, stop) and rounds. */
    static final class ForkClock {
        private long forks;
        private long setupNanos;
        private long rounds;
        private long roundNanos;

        void add(long setup, int roundCount, long roundsTook) {
            forks++;
            setupNanos += setup;
            rounds += roundCount;
            roundNanos += roundsTook;
        }

        long meanForkNanos() {
            return forks == 0 ? 0 : (setupNanos + roundNanos) / forks;
        }

        double setupSeconds() {
            return forks == 0 ? Double.NaN : setupNanos / 1e9 / forks;
        }

        double roundSeconds() {
            return rounds == 0 ? Double.NaN : roundNanos / 1e9 / rounds;
        }
    }

    /** The A/A twin of a command baseline, added second, or null: only with --aa (checked against a running baseline). */
    private String twin(List<Given> given) {
        if (!aa) return null;
        Given base = given.get(0);
        String name = base.name() + AA_SUFFIX;
        given.add(1, new Given(name, null, base.command()));
        return name;
    }

    private String header(List<Given> given, String twin, double margin, long orderSeed, SliceLoad slices) {
        StringBuilder sb = new StringBuilder();
        String design;
        String spread = forkGap.isZero() ? "" : ", " + Durations.format(forkGap) + " apart";
        if (untilDecided) {
            design = String.format(Locale.ROOT, "forks (fresh server processes%s) of %d rounds until every verdict decides, at most %s,",
                    spread, rounds, Durations.format(maxTime));
        } else if (forks > 1) {
            design = String.format(Locale.ROOT, "%s%d forks (fresh server processes%s) of %d rounds", plan ? "a pilot of " : "", forks, spread, rounds);
        } else {
            design = String.format(Locale.ROOT, "%d rounds", rounds);
        }
        sb.append(String.format(Locale.ROOT, "# echo-bench compare: %d servers, %s of %s slices, %s "
                + "(seed %d: --seed %d repeats it)%n# load: %s; warm-up %s per server%s%n", given.size(), design, Durations.format(slice),
                describeOrder(Compare::shuffle), orderSeed, orderSeed, slices.describe(), Durations.format(warmup), forks > 1 || untilDecided ? " and fork" : ""));
        for (Given g : given) {
            if (g.isCommand() && !g.name().equals(twin)) sb.append("# ").append(g.name()).append(": sh -c '").append(g.command()).append("'\n");
        }
        sb.append(String.format(Locale.ROOT, "# threshold: ±%s%% (%s), fixed before the data%n", niolab.common.stats.Decimals.fixed(margin * 100, 1),
                spec.commandLine().getParseResult().hasMatchedOption("--threshold") ? "--threshold" : "the default"));
        if (twin != null) {
            sb.append("# A/A check: ").append(twin).append(" is a second process of ").append(given.get(0).name())
                    .append("'s command in every fork; its ratio should lie inside the threshold\n");
        }
        if (forks == 1) sb.append("# one fork: the intervals describe these server processes, not the next ones (give servers as commands for forks)\n");
        return sb.toString();
    }

    /**
     * One fork: a fresh process of every live command server, started in a fresh random order
     * and each waited for; a warm-up of every server; the fork's rounds; then its processes stopped.
     */
    private void runFork(int fork, List<Given> given, SliceLoad slices, SplittableRandom order, Path logs, List<Slice> done,
            Map<String, String> deaths, PrintStream progress, ForkClock clock) throws IOException {
        CompareTarget[] targets = new CompareTarget[given.size()];
        Map<String, ForkedServer> started = new HashMap<>();
        long begun = System.nanoTime();
        long roundsBegun = begun;
        long roundsEnded = begun;
        try {
            int[] start = new int[given.size()];
            if (logs != null) shuffle(start, order);
            else for (int i = 0; i < start.length; i++) start[i] = i;
            for (int i : start) {
                Given g = given.get(i);
                if (deaths.containsKey(g.name())) continue;
                if (!g.isCommand()) {
                    g.endpoint().requireListening();
                    targets[i] = g.endpoint();
                    continue;
                }
                if (progress != null) progress.printf(Locale.ROOT, "\rfork %s  starting %-30s", forkOf(fork), g.name());
                ForkedServer s = ForkedServer.start(g.name(), g.command(), logs, fork);
                started.put(g.name(), s);
                s.awaitListening(startTimeout.toMillis());
                targets[i] = s.target();
            }
            // in a fresh random order: no place on the command line decides which server enters the first round straight from its warm-up
            int[] warm = new int[targets.length];
            shuffle(warm, order);
            for (int w : warm) {
                CompareTarget t = targets[w];
                if (t == null) continue;
                if (progress != null) progress.printf(Locale.ROOT, "\rfork %s  warm-up %-30s", forkOf(fork), t.name());
                slices.warm(t, warmup.toNanos());
            }
            roundsBegun = System.nanoTime();
            run(fork, targets, started, slices, order, done, deaths, progress);
            roundsEnded = System.nanoTime();
        } finally {
            for (ForkedServer s : started.values()) s.stop();
        }
        long took = System.nanoTime() - begun;
        clock.add(took - (roundsEnded - roundsBegun), rounds, roundsEnded - roundsBegun);
    }

    /** A fork's rounds: every live server once per round, in a fresh order; a server that dies is named and visited no more. */
    private void run(int fork, CompareTarget[] targets, Map<String, ForkedServer> started, SliceLoad slices, SplittableRandom order,
            List<Slice> done, Map<String, String> deaths, PrintStream progress) throws IOException {
        int[] visit = new int[targets.length];
        int first = (fork - 1) * rounds;
        for (int round = first + 1; round <= first + rounds; round++) {
            int from = done.size();
            shuffle(visit, order);
            for (int position = 0; position < visit.length; position++) {
                CompareTarget t = targets[visit[position]];
                if (t == null || deaths.containsKey(t.name())) continue;
                if (progress != null) progress.printf(Locale.ROOT, "\r%sround %d/%d  %-30s", forks > 1 || untilDecided ? "fork " + forkOf(fork) + "  " : "",
                        round - first, rounds, t.name());
                ForkedServer process = started.get(t.name());
                if (ForkedServer.closing()) throw new ForkedServer.ServerFailed("compare was stopped; so are its servers");
                if (process != null && !process.alive()) {
                    deaths.put(t.name(), String.format(Locale.ROOT, "(%s) exited with status %d before round %d%s; its %d slices are kept",
                            t.hostPort(), process.exitStatus(), round, process.lastLines(), count(done, t)));
                    continue;
                }
                if (!t.pidAlive()) {
                    deaths.put(t.name(), String.format(Locale.ROOT, "(%s) died before round %d: its pid %d is gone; its %d slices are kept",
                            t.hostPort(), round, t.pid(), count(done, t)));
                    continue;
                }
                Slice s = slices.run(t, fork, round, position, slice.toNanos());
                done.add(s);
                if (s.refused() && ForkedServer.closing()) throw new ForkedServer.ServerFailed("compare was stopped; so are its servers");
                if (s.refused() && process != null && exited(process)) {
                    deaths.put(t.name(), String.format(Locale.ROOT, "(%s) exited with status %d in round %d%s; its %d slices are kept",
                            t.hostPort(), process.exitStatus(), round, process.lastLines(), count(done, t) - 1));
                } else if (s.refused()) {
                    deaths.put(t.name(), String.format(Locale.ROOT, "(%s) died in round %d: every connect was refused; its %d slices are kept",
                            t.hostPort(), round, count(done, t) - 1));
                }
            }
            if (rulers.repeatRound(done, from, round)) round--;
        }
        clear(progress);
    }

    /** --fork-gap's pause; a signal that stops compare ends it early (the servers are already stopped between forks). */
    private static void pause(Duration gap) {
        if (gap.isZero()) return;
        try {
            Thread.sleep(gap.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a started server whose slice was refused has exited: its status is then the better line. */
    private static boolean exited(ForkedServer process) {
        try {
            return process.exitsWithin(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String forkOf(int fork) {
        return untilDecided ? fork + " (until decided)" : fork + "/" + forks;
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

    /**
     * The rounds' order as {@code shuffle} draws it, for the header: an order drawn the same for
     * every round (the handout's stub of round-order) is said to be fixed, never random.
     */
    static String describeOrder(BiConsumer<int[], SplittableRandom> shuffle) {
        SplittableRandom probe = new SplittableRandom(1);
        int[] first = new int[3];
        int[] next = new int[3];
        shuffle.accept(first, probe);
        // a fair shuffle of three repeats one order twenty times in a row with odds of 6^-20
        for (int i = 0; i < 20; i++) {
            shuffle.accept(next, probe);
            if (!Arrays.equals(first, next)) return "each round in a fresh random order";
        }
        return "every round in the same order (round-order draws no other)";
    }

    private static void clear(PrintStream progress) {
        if (progress == null) return;
        progress.print("\r" + " ".repeat(79) + "\r");
        progress.flush();
    }

    /** The server logs go with the run: whatever a failing server printed last is in its one line. */
    private static void deleteLogs(Path logs) {
        if (logs == null) return;
        try (Stream<Path> files = Files.walk(logs)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
        } catch (IOException e) {
            // a temporary directory left behind is no reason to fail a run
        }
    }

    /** "2%" or "2.5%" as a fraction; the caller has checked it with {@link #percentProblem}. */
    static double parseThreshold(String value) {
        return Double.parseDouble(value.substring(0, value.length() - 1)) / 100;
    }

    private static String percentProblem(String option, String value) {
        if (!value.matches("[0-9]+(\\.[0-9]+)?%")) return option + " must be a percentage such as 2% or 2.5%, not '" + value + "'";
        // a slowdown by 100% or more would be a rate of zero or less: no ratio can lie beyond it
        if (parseThreshold(value) >= 1) return option + " must be below 100%, not " + value;
        return null;
    }

    /** The first thing wrong with the command line, as one line; fills {@code given} and the design's defaults when all is well. */
    private String problem(List<Given> given) {
        String options = loadOptions.problem();
        if (options != null) return options;
        if (rulers.problem() != null) return rulers.problem();
        if (slice.toMillis() < 100) return "--slice must be at least 100ms";
        if (warmup.isNegative()) return "--warmup must not be negative";
        if (startTimeout.toMillis() < 100) return "--start-timeout must be at least 100ms";
        if (forkGap.isNegative()) return "--fork-gap must not be negative";
        if (percentProblem("--threshold", threshold) != null) return percentProblem("--threshold", threshold);
        if (detect != null && !plan) return "--detect sizes --plan's design: add --plan";
        if (detect != null && percentProblem("--detect", detect) != null) return percentProblem("--detect", detect);
        if (detect != null && parseThreshold(detect) <= parseThreshold(threshold)) {
            return "--detect " + detect + " must exceed --threshold " + threshold + ": a difference inside the threshold is called the same";
        }
        if (maxTime != null && !untilDecided) return "--max-time bounds --until-decided: add --until-decided";
        if (untilDecided && forks != null) return "--until-decided adds forks until every verdict decides: give --max-time, not --forks";
        if (untilDecided && plan) return "--plan sizes a fixed design; --until-decided sizes itself: give one of them";
        if (!load.equals("echo-bench") && !load.equals("wrk")) return "--load must be echo-bench or wrk, not '" + load + "'";
        if (load.equals("wrk")) {
            if (loadOptions.protocol != WireProtocol.HTTP) return "--load wrk drives HTTP: add --protocol http";
            if (slice.toMillis() % 1000 != 0) return "--load wrk takes whole seconds for --slice, not " + Durations.format(slice);
            if (loadOptions.rate > 0) return "--load wrk runs a closed loop: --rate needs --load echo-bench";
            if (loadOptions.pipeline > 1 && wrkScript == null) return "--pipeline with --load wrk needs --wrk-script FILE (scripts/wrk-pipeline.lua)";
        } else if (wrkScript != null) {
            return "--wrk-script needs --load wrk";
        }
        String servers = servers(given);
        if (servers != null) return servers;
        return design(given);
    }

    /** The servers as given, each checked; null when all is well. */
    private String servers(List<Given> given) {
        Set<String> names = new LinkedHashSet<>();
        for (String s : servers) {
            Given g;
            try {
                String name = CompareTarget.name(s);
                String value = s.substring(name.length() + 1);
                if (CompareTarget.isCommand(value)) {
                    if (value.isBlank()) return "server " + name + ": the command is empty";
                    if (!value.contains(ForkedServer.PORT)) {
                        return "server " + name + ": the command '" + value + "' has no " + ForkedServer.PORT + ": compare starts it on a free port "
                                + "and passes the port there (a running server is " + name + "=HOST:PORT)";
                    }
                    g = new Given(name, null, value);
                } else {
                    g = new Given(name, CompareTarget.parse(s), null);
                }
            } catch (CompareTarget.BadTarget e) {
                return e.getMessage();
            }
            if (!names.add(g.name())) return "server name '" + g.name() + "' is given twice";
            if (!g.isCommand() && !g.endpoint().pidAlive()) return "server " + g.name() + ": no process " + g.endpoint().pid();
            given.add(g);
        }
        return null;
    }

    /**
     * The design's defaults and limits: servers given as commands run in at least {@value #MIN_FORKS}
     * forks of at least {@value #MIN_ROUNDS_PER_FORK} rounds; running servers in one fork of at least
     * {@link MedianInterval#MIN_ROUNDS} rounds, since they cannot be restarted.
     */
    private String design(List<Given> given) {
        Given running = null;
        boolean anyCommand = false;
        for (Given g : given) {
            if (g.isCommand()) anyCommand = true;
            else if (running == null) running = g;
        }
        if (running != null && (anyCommand || (forks != null && forks > 1) || untilDecided || plan)) {
            String why = untilDecided ? "--until-decided" : plan ? "--plan" : forks != null && forks > 1 ? "--forks " + forks : "a comparison in forks";
            return why + " starts fresh server processes: server " + running.name() + " (" + running.endpoint().hostPort()
                    + ") is running already and cannot be restarted; give it as " + running.name() + "='COMMAND ... {port}'";
        }
        if (!anyCommand) {
            if (forks == null) forks = 1;
            if (rounds == null) rounds = DEFAULT_ROUNDS_ONE_FORK;
            if (rounds < MedianInterval.MIN_ROUNDS) {
                return "--rounds " + rounds + ": one fork needs at least " + MedianInterval.MIN_ROUNDS + " rounds for its median's 95% interval";
            }
        } else {
            if (forks == null) forks = untilDecided ? 0 : plan ? MIN_FORKS : DEFAULT_FORKS;
            if (rounds == null) rounds = plan ? MIN_ROUNDS_PER_FORK : DEFAULT_ROUNDS_PER_FORK;
            if (!untilDecided && forks < MIN_FORKS) {
                return "--forks " + forks + ": a comparison in forks needs at least " + MIN_FORKS + " (its interval across F forks has F - 1 "
                        + "degrees of freedom: 2 forks give t = 12.7, wider than any difference worth calling)";
            }
            if (rounds < MIN_ROUNDS_PER_FORK) return "--rounds " + rounds + ": each fork needs at least " + MIN_ROUNDS_PER_FORK + " rounds for its median";
        }
        if (!forkGap.isZero() && forks == 1) return "--fork-gap spaces forks apart: give the servers as commands, in forks";
        if (untilDecided && maxTime == null) maxTime = Durations.parse(DEFAULT_MAX_TIME);
        if (aa && given.get(0).endpoint() != null) {
            return "--aa starts a second process of the baseline's command: server " + given.get(0).name() + " is running already";
        }
        if (serverLogs != null && !anyCommand) {
            return "--server-logs keeps the output of the servers compare starts: give at least one as NAME='COMMAND ... {port}'";
        }
        return null;
    }

    private BenchComparison.Config config(List<Given> given, long orderSeed, double margin, int forksRun) {
        List<String> named = new ArrayList<>();
        for (Given g : given) named.add(g.name() + "=" + (g.isCommand() ? "'" + g.command() + "'" : g.endpoint().hostPort()));
        return new BenchComparison.Config(String.join(" ", named), load, loadOptions.protocol.toString(),
                loadOptions.protocol == WireProtocol.HTTP ? loadOptions.path : null, loadOptions.connections, loadOptions.threads,
                loadOptions.keepAliveOrPipelined(), loadOptions.pipeline, loadOptions.rate, loadOptions.size, rounds,
                slice.toMillis() / 1000.0, warmup.toMillis() / 1000.0, orderSeed, forksRun, margin, aa, untilDecided,
                untilDecided ? maxTime.toMillis() / 1000.0 : null);
    }
}

package niolab.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import niolab.common.CountersLine;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchReport;
import niolab.common.results.ResultsJson;
import niolab.common.results.RunConditions;
import niolab.common.results.RunEnvironment;
import niolab.common.stats.Interval;

/** One experiment's raw results folder, {@code experiments/results/NAME/}, and typed reads from it. */
public final class Results {
    public final Path dir;
    /** A compare JSON of this run that is its own A/A pair, where it recorded no separate one (exp-noise). */
    private String ownFloor;

    public Results(Path dir) {
        this.dir = dir;
    }

    /** Names this run's own A/A compare as its check, for a run that measures noise itself and takes no separate one. */
    Results withOwnFloor(String file) {
        ownFloor = file;
        return this;
    }

    /**
     * This run's A/A interval, lt against lt: the separate run its conditions.json names, else its
     * own; null where it measured none (or too few rounds for an interval). A check on the run,
     * printed against the report's declared threshold, never a margin.
     */
    Interval aa() {
        String file = floorFile();
        if (file == null) return null;
        CompareRun run = CompareRun.of(this, file, Threshold.DEFAULT);
        List<BenchComparison.Server> servers = run.json.servers();
        return servers.size() < 2 ? null : run.ratio(servers.get(1).name(), servers.get(0).name(), CompareRun.RATE);
    }

    /** The file {@link #aa} reads, or null. */
    private String floorFile() {
        if (has("conditions.json")) {
            RunConditions c = json("conditions.json", RunConditions.class);
            if (c.noise() != null && has(c.noise())) return c.noise();
        }
        return ownFloor != null && has(ownFloor) ? ownFloor : null;
    }

    /** The files under this run's folder whose path relative to it matches {@code glob} (PathMatcher's glob syntax), sorted. */
    public List<String> files(String glob) {
        PathMatcher matcher = dir.getFileSystem().getPathMatcher("glob:" + glob);
        List<String> found = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path relative = dir.relativize(p);
                if (Files.isRegularFile(p) && matcher.matches(relative)) found.add(relative.toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        Collections.sort(found);
        return found;
    }

    public boolean has(String file) {
        return Files.isRegularFile(dir.resolve(file));
    }

    public String text(String file) {
        try {
            return Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir.resolve(file) + " (run the experiment first)", e);
        }
    }

    /**
     * A JSON file read into {@code type}, a record mirroring it (lab-common's {@link ResultsJson}
     * mapping). A file cut short, or a compare run stopped before its end ({@code "partial": true}),
     * is refused: its numbers are not the run's.
     */
    public <T> T json(String file, Class<T> type) {
        T value;
        try {
            value = ResultsJson.MAPPER.readValue(text(file), type);
        } catch (JsonProcessingException e) {
            // the input ended inside a value: where a record is being read, the mapper wraps that in its own exception
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof JsonEOFException) throw truncated(file, e);
            }
            throw new IllegalArgumentException(dir.resolve(file) + ": " + e.getOriginalMessage(), e);
        }
        if (value instanceof BenchComparison b && Boolean.TRUE.equals(b.partial())) {
            throw new IllegalArgumentException(dir.resolve(file) + " is a partial compare run (stopped by a signal before its end): run the experiment again");
        }
        return value;
    }

    /** An echo-bench {@code --json} file; one of another tool or schema version is an error, not a guess. */
    public BenchReport bench(String file) {
        BenchReport b = json(file, BenchReport.class);
        if (!"echo-bench".equals(b.tool()) || b.schema() != BenchReport.SCHEMA) {
            throw new IllegalArgumentException(dir.resolve(file) + ": " + b.tool() + " schema " + b.schema()
                    + ", but this generator reads echo-bench schema " + BenchReport.SCHEMA);
        }
        return b;
    }

    /** A CSV of the run; one whose last line has no end was cut short while written, and is refused. */
    public Csv csv(String file) {
        String text = text(file);
        if (text.isEmpty() || !text.endsWith("\n")) throw truncated(file, null);
        return Csv.parse(text, dir.resolve(file).toString());
    }

    private IllegalArgumentException truncated(String file, Exception cause) {
        return new IllegalArgumentException(dir.resolve(file) + " is truncated (a run killed while writing it?): run the experiment again", cause);
    }

    /** The last {@code counters: } line of a lab server's output (mp: the master's sum, not the workers'). */
    public ServerCounters counters(String file) {
        String last = CountersLine.last(text(file));
        if (last == null) throw new IllegalArgumentException(dir.resolve(file) + " has no counters line");
        return new ServerCounters(CountersLine.parse(last));
    }

    /**
     * The environment block every report carries, from {@code env.json}, with the load as the run
     * recorded it and its A/A pair checked against the report's declared {@code threshold}.
     */
    public String environment(Threshold threshold) {
        RunEnvironment env = json("env.json", RunEnvironment.class);
        String file = floorFile();
        String floor = file == null ? null : aaCheck(file, threshold) + (file.equals(ownFloor) ? " (this run's own A/A, " + file + ")" : "");
        String interference = interference(files("*.json"));
        if (!has("conditions.json")) return environmentTable(env, load(), null, floor, interference);
        RunConditions c = json("conditions.json", RunConditions.class);
        return environmentTable(env, c.loadavgBefore() + " before, " + c.loadavgAfter() + " after (1, 5, 15 min)",
                Md.f2(c.stealPercent()) + "% of the CPU time over the run", floor, interference);
    }

    /**
     * What compare's interference guard read over {@code files} (its --json files; others are
     * skipped): how many slices other processes disturbed on the measured cores, and their median
     * share of those cores; null when no slice carries the reading (files written before the guard).
     */
    String interference(List<String> files) {
        int slices = 0, disturbed = 0;
        List<Double> shares = new ArrayList<>();
        for (String file : files) {
            if (!text(file).contains("\"interference\"")) continue; // the cheap test: most results predate the guard
            BenchComparison run = json(file, BenchComparison.class);
            if (!BenchComparison.COMMAND.equals(run.command()) || run.slices() == null) continue;
            for (BenchComparison.Slice s : run.slices()) {
                if (s.rulers() == null || s.rulers().interference() == null) continue;
                slices++;
                shares.add(s.rulers().interference());
                if (Boolean.TRUE.equals(s.rulers().disturbed())) disturbed++;
            }
        }
        if (slices == 0) return null;
        double[] v = new double[shares.size()];
        for (int i = 0; i < v.length; i++) v[i] = shares.get(i);
        return disturbed + " of " + slices + " slices disturbed (" + Md.f1(100.0 * disturbed / slices) + "%); other processes' median share"
                + " of the measured cores " + Md.f1(niolab.common.stats.Quantiles.median(v) * 100) + "%";
    }

    /**
     * A two-column markdown table, one row per field, values in code spans; {@code load},
     * {@code steal} and {@code aaCheck} as the run recorded them, or null where it did not
     * (results written before conditions.json say "not recorded"); {@code interference}, compare's
     * reading ({@link #interference}), a row only where the results carry it.
     */
    static String environmentTable(RunEnvironment env, String load, String steal, String aaCheck, String interference) {
        String[][] rows = {
                {"date (UTC)", env.date()}, {"CPU", env.cpu()}, {"cores", Integer.toString(env.cores())}, {"memory", env.memory()},
                {"kernel", env.kernel()}, {"JDK", env.jdk()}, {"JVM flags (JAVA_OPTS)", env.javaOpts()},
                {"server pinned to CPU", env.serverCpu()}, {"client pinned to CPU", env.clientCpu()},
                {"ulimit -n", env.ulimitN()}, {"ip_local_port_range", env.ipLocalPortRange()},
                {"tcp_tw_reuse", env.tcpTwReuse()}, {"commit", env.commit()},
                {"load average (1 min)", load == null ? "not recorded" : load},
                {"steal time", steal == null ? "not recorded" : steal},
                {"A/A check", aaCheck == null ? "not recorded" : aaCheck},
                {"interference", interference}};
        StringBuilder sb = new StringBuilder("| | |\n|---|---|");
        for (String[] r : rows) {
            if (r[0].equals("interference") && interference == null) continue; // results from before the guard: the table as it was
            String v = r[1] == null || r[1].isEmpty() ? "(none)" : r[1];
            sb.append("\n| ").append(r[0]).append(" | `").append(v.replace("|", "\\|")).append("` |");
        }
        if (env.commit() != null && env.commit().contains(RunEnvironment.DIRTY)) {
            sb.append("\n\nThis run was made from a work tree with uncommitted changes: the code that produced these figures"
                    + " is not exactly the recorded commit, and no commit holds it.");
        }
        return sb.toString();
    }

    /**
     * The A/A comparison of {@code make noise} (echo-bench compare --json): its rate ratio's
     * interval, recomputed from the slices as every interval of the reports is, checked against
     * {@code threshold}.
     */
    String aaCheck(String file, Threshold threshold) {
        CompareRun run = CompareRun.of(this, file, threshold);
        List<BenchComparison.Server> servers = run.json.servers();
        Interval rate = servers.size() < 2 ? null : run.ratio(servers.get(1).name(), servers.get(0).name(), CompareRun.RATE);
        if (rate == null) return "measured, but too few paired rounds for an interval";
        return "lt against lt, rate ratio over " + run.rounds(servers.get(1).name(), servers.get(0).name()) + " rounds; "
                + threshold.aaCheck(rate) + " (the report's declared threshold, which the pair checks and does not set)";
    }

    /**
     * The 1-minute load average around a run from before conditions.json, wherever it recorded
     * it: a settings.csv row or column, ffi's load.csv, mistakes' loadavg.txt, or a load1
     * column per measurement (cold-start). Null when the run recorded none.
     */
    String load() {
        if (has("settings.csv")) {
            Csv settings = csv("settings.csv");
            if (settings.header().contains("load_before")) {
                java.util.Map<String, String> row = settings.rows().get(0);
                return row.get("load_before") + " before, " + row.get("load_after") + " after";
            }
            if (settings.header().contains("key") && settings.numbers("value", "key", "load_at_start").length > 0) {
                return settings.row("key", "load_at_start").get("value") + " before, " + settings.row("key", "load_at_end").get("value") + " after";
            }
        }
        if (has("load.csv")) {
            Csv load = csv("load.csv");
            return load.rows().get(0).get("load1") + " before, " + load.row("phase", "end").get("load1") + " after";
        }
        if (has("loadavg.txt")) return text("loadavg.txt").trim().split(" ")[0] + " before, not recorded after";
        for (String file : new String[] {"pairs.csv", "ready.csv"}) {
            if (has(file) && csv(file).header().contains("load1")) {
                double[] v = csv(file).numbers("load1");
                return Md.f2(v[Stats.best(v, false)]) + " to " + Md.f2(v[Stats.best(v, true)]) + " at the starts of the measurements";
            }
        }
        return null;
    }
}

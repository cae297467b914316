package niolab.course.notes;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import niolab.common.ServerCatalog;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.common.results.RunEnvironment;
import niolab.course.Course;
import niolab.course.Course.Checkpoint;
import niolab.reports.ArchitecturesExperiment;
import niolab.reports.ArchitecturesRun;
import niolab.reports.ClassicServers;
import niolab.reports.CompareRun;
import niolab.reports.Csv;
import niolab.reports.ExperimentReports;
import niolab.reports.Experiments;
import niolab.reports.HttpExperiment;
import niolab.reports.Md;
import niolab.reports.Report;
import niolab.reports.Results;
import niolab.reports.ServerCounters;
import niolab.reports.Stats;
import niolab.reports.UringExperiment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code labs ROOT} ({@code make labs}): the course's generated text, from the committed results
 * and the autograder's table, so that no figure and no checkpoint is copied by hand.
 *
 * <ul>
 * <li>{@code labs/instructor-notes.md} from {@code labs/templates/instructor-notes.md}.
 *     {@code {{EXP:key}}} is a value experiment EXP's report computes from
 *     {@code experiments/results/EXP/} (the same code: notes and reports cannot disagree),
 *     {@code {{EXP:machine}}} the machine EXP ran on, {@code {{notes:key}}} a range computed
 *     here ({@link #ranges}), {@code {{labN:points}}} lab N's points.</li>
 * <li>In the sheets and the index, each block between {@code <!-- BEGIN GENERATED NAME -->} and
 *     {@code <!-- END GENERATED NAME -->}: {@code checkpoints} (the checkpoints of the lab's
 *     manifest, {@link Course}), {@code grading} (points per lab) and {@code gradetimes}
 *     (what {@code make grade-times} measured, {@link GradeTimes}).</li>
 * </ul>
 * With {@code --check} it only compares, as {@code reports --check} does. It reads the results
 * through the report generator's own classes (niolab.reports), so that it sits on the course's
 * side of that module: {@code java -jar course/target/course.jar ROOT}.
 */
@Command(name = "labs", mixinStandardHelpOptions = true,
        description = "Regenerates labs/instructor-notes.md and the generated blocks of the lab sheets from "
                + "experiments/results/ and the labs' manifests (labs/NN-name/lab.tsv).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written (with --check: everything matches)",
                "1:a file differs (--check), or results, a template or the table cannot be read", "2:bad usage"})
public final class LabNotes implements Callable<Integer> {
    static final String NOTES = "labs/instructor-notes.md";
    static final String TEMPLATE = "labs/templates/instructor-notes.md";
    private static final Pattern SHEET = Pattern.compile("(\\d\\d)-.*\\.md");
    private static final Pattern BLOCK = Pattern.compile(
            "(<!-- BEGIN GENERATED ([a-z]+)[^>]*-->\\n)(.*?)(<!-- END GENERATED \\2 -->)", Pattern.DOTALL);
    private static final String[] ARCHS = ClassicServers.ARCHS;
    private static final String[] LABELS = ClassicServers.LABELS;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "ROOT", description = "The lab's root folder (labs/, experiments/).")
    private Path root;

    @Option(names = "--check", description = "Compare with the files on disk instead of writing them.")
    private boolean check;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LabNotes()).execute(args));
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        try {
            if (check) {
                List<String> stale = stale(root);
                for (String s : stale) err.println("stale: " + s + " does not match the labs' manifests and experiments/results (run make labs)");
                return stale.isEmpty() ? 0 : 1;
            }
            for (Map.Entry<Path, String> f : render(root).entrySet()) {
                Files.writeString(root.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
                out.println("wrote " + root.resolve(f.getKey()));
            }
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    /** Every generated file, path relative to ROOT → content: the notes, and each sheet with its blocks filled. */
    public static Map<Path, String> render(Path root) throws IOException {
        Course course = Course.read(root);
        List<Checkpoint> checkpoints = course.checkpoints();
        Map<Path, String> files = new LinkedHashMap<>();
        if (!Files.isRegularFile(root.resolve(TEMPLATE))) {
            throw new IOException("no " + TEMPLATE + " under " + root + ": make labs runs in the lab, not in a student handout");
        }
        Report values = values(root, checkpoints);
        String template = Files.readString(root.resolve(TEMPLATE), StandardCharsets.UTF_8);
        files.put(Paths.get(NOTES), "<!-- Generated by `make labs` from experiments/results/, the labs' manifests (labs/NN-name/lab.tsv) and "
                + TEMPLATE + ": edit the template, not this file. -->\n" + values.fill(template, TEMPLATE));
        String gradeTimes = GradeTimes.block(root, checkpoints);
        for (Path page : pages(root)) {
            String name = page.getFileName().toString();
            Matcher sheet = SHEET.matcher(name);
            int lab = sheet.matches() ? Integer.parseInt(sheet.group(1)) : 0;
            files.put(Paths.get("labs", name), fillBlocks(Files.readString(page, StandardCharsets.UTF_8), name, lab, course, gradeTimes));
        }
        Path readme = root.resolve("README.md");
        if (Files.isRegularFile(readme)) {
            String text = Files.readString(readme, StandardCharsets.UTF_8);
            if (text.contains("<!-- BEGIN GENERATED gradetimes")) files.put(Paths.get("README.md"), fillGradeTimes(text, gradeTimes));
        }
        return files;
    }

    /** Files whose content on disk differs from what the table and the results regenerate. */
    public static List<String> stale(Path root) throws IOException {
        List<String> stale = new ArrayList<>();
        for (Map.Entry<Path, String> f : render(root).entrySet()) {
            Path p = root.resolve(f.getKey());
            if (!Files.isRegularFile(p) || !Files.readString(p, StandardCharsets.UTF_8).equals(f.getValue())) stale.add(f.getKey().toString());
        }
        return stale;
    }

    /** The index and the sheets ({@code NN-name.md}), in order. */
    static List<Path> pages(Path root) throws IOException {
        try (Stream<Path> files = Files.list(root.resolve("labs"))) {
            return files.filter(p -> p.getFileName().toString().equals("README.md") || SHEET.matcher(p.getFileName().toString()).matches())
                    .sorted().toList();
        }
    }

    private static String fillBlocks(String page, String name, int lab, Course course, String gradeTimes) {
        List<Checkpoint> checkpoints = course.checkpoints();
        return BLOCK.matcher(page).replaceAll(m -> {
            String body = switch (m.group(2)) {
                case "checkpoints" -> checkpointTable(lab, checkpoints);
                case "grading" -> gradingTable(checkpoints);
                case "needs" -> needsLine(course, lab);
                case "shortcourse" -> shortCourse(course, m.group(1));
                case "gradetimes" -> gradeTimes;
                default -> throw new IllegalArgumentException("labs/" + name + ": no generated block is called " + m.group(2));
            };
            return Matcher.quoteReplacement(m.group(1) + body + "\n" + m.group(4));
        });
    }

    /** The root README's {@code gradetimes} block filled; its other generated blocks are {@code make reports}'. */
    static String fillGradeTimes(String readme, String gradeTimes) {
        return BLOCK.matcher(readme).replaceAll(m -> Matcher.quoteReplacement(
                m.group(2).equals("gradetimes") ? m.group(1) + gradeTimes + "\n" + m.group(4) : m.group()));
    }

    /** A sheet's checkpoints: what each checks, its points, and how to run it alone. */
    static String checkpointTable(int lab, List<Checkpoint> checkpoints) {
        List<List<String>> rows = new ArrayList<>();
        int total = 0;
        for (Checkpoint c : checkpoints) {
            if (c.lab() != lab) continue;
            String test = c.test().substring(c.testClass().lastIndexOf('.') + 1);
            rows.add(List.of("`" + c.id() + "`", c.checks(), c.given() ? "0 (given)" : Integer.toString(c.points()), "`" + test + "`"));
            total += c.points();
        }
        if (rows.isEmpty()) throw new IllegalArgumentException("the manifest of lab " + lab + " (labs/NN-name/lab.tsv) declares no checkpoint");
        rows.add(List.of("total", "", Integer.toString(total), ""));
        return Md.table(List.of("checkpoint", "what it checks", "points", "test"), rows, "llrl");
    }

    /**
     * A sheet's needs line, from its manifest's [needs]: the other labs whose regions its
     * checkpoints or its steps run, each with the regions and who runs them.
     */
    static String needsLine(Course course, int lab) {
        Course.Lab l = course.lab(lab);
        if (l == null) throw new IllegalArgumentException("no manifest for lab " + lab + " (labs/NN-name/lab.tsv)");
        Map<Integer, Map<String, List<String>>> byLab = new TreeMap<>(); // lab -> region -> what runs it
        for (Map.Entry<String, List<String>> e : l.needs().entrySet()) {
            for (String region : e.getValue()) {
                byLab.computeIfAbsent(course.regions().get(region).lab(), k -> new TreeMap<>())
                        .computeIfAbsent(region, k -> new ArrayList<>()).add(e.getKey());
            }
        }
        if (byLab.isEmpty()) return "Needs: no other lab's code; the checkpoints and steps run this lab's regions and what the handout gives.";
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Integer, Map<String, List<String>>> e : byLab.entrySet()) {
            List<String> regions = new ArrayList<>();
            java.util.Set<String> who = new java.util.LinkedHashSet<>();
            for (Map.Entry<String, List<String>> r : e.getValue().entrySet()) {
                regions.add("`" + r.getKey() + "`");
                for (String id : r.getValue()) who.add(id.equals(Course.STEPS) ? "this sheet's steps" : "`" + id + "`");
            }
            parts.add("lab " + e.getKey() + "'s " + String.join(", ", regions) + " (run by " + String.join(", ", who) + ")");
        }
        return "Needs: " + String.join("; ", parts) + ".";
    }

    /**
     * The index's advice to a class short of time: the labs its marker names
     * ({@code <!-- BEGIN GENERATED shortcourse 5 6 -->}), with every lab whose code they run.
     */
    static String shortCourse(Course course, String marker) {
        Matcher m = SHORT_COURSE.matcher(marker);
        if (!m.find()) throw new IllegalArgumentException("a shortcourse block names the labs it keeps: <!-- BEGIN GENERATED shortcourse 5 6 -->");
        List<Integer> chosen = new ArrayList<>();
        for (String n : m.group(1).trim().split(" ")) chosen.add(Integer.parseInt(n));
        List<String> taken = course.withNeeds(chosen).stream().map(String::valueOf).toList();
        List<String> named = chosen.stream().map(String::valueOf).toList();
        return "A class short of time can take labs " + joinAnd(taken) + ": " + (named.size() == 1 ? "lab " : "labs ") + joinAnd(named)
                + ", with the labs whose code they run (each sheet's needs line says which).";
    }

    private static final Pattern SHORT_COURSE = Pattern.compile("shortcourse ((?:\\d+ )+)");

    /** The index's table: each lab's checkpoints and points. */
    static String gradingTable(List<Checkpoint> checkpoints) {
        Map<Integer, int[]> perLab = perLab(checkpoints);
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<Integer, int[]> e : perLab.entrySet()) {
            rows.add(List.of("lab " + e.getKey(), Integer.toString(e.getValue()[0]), Integer.toString(e.getValue()[1]),
                    "`make grade LAB=" + e.getKey() + "`"));
        }
        return Md.table(List.of("lab", "checkpoints", "points", "grade it"), rows, "lrrl");
    }

    /** lab → {checkpoints, points}. */
    private static Map<Integer, int[]> perLab(List<Checkpoint> checkpoints) {
        Map<Integer, int[]> perLab = new TreeMap<>();
        for (Checkpoint c : checkpoints) {
            int[] n = perLab.computeIfAbsent(c.lab(), k -> new int[2]);
            n[0]++;
            n[1] += c.points();
        }
        return perLab;
    }

    /** Every value the notes may use: each experiment's report values under its name, the ranges, the labs' points. */
    static Report values(Path root, List<Checkpoint> checkpoints) throws IOException {
        Path experiments = root.resolve("experiments");
        Report all = new Report();
        for (Map.Entry<String, Report> computed : ExperimentReports.computeAll(experiments).entrySet()) {
            String name = computed.getKey();
            for (Map.Entry<String, String> v : computed.getValue().values().entrySet()) all.put(name + ":" + v.getKey(), v.getValue());
            RunEnvironment env = new Results(experiments.resolve("results").resolve(name)).json("env.json", RunEnvironment.class);
            all.put(name + ":machine", env.cpu() + ", " + env.cores() + " cores, " + env.kernel() + ", " + env.jdk()
                    + ", server on CPU " + env.serverCpu() + ", client on CPU " + env.clientCpu() + " (" + env.date().substring(0, 10) + ")");
        }
        ranges(experiments.resolve("results"), all);
        lab7Ranges(experiments.resolve("results"), all);
        for (Map.Entry<Integer, int[]> e : perLab(checkpoints).entrySet()) all.put("lab" + e.getKey() + ":points", Integer.toString(e.getValue()[1]));
        return all;
    }

    /**
     * What the reports give as medians and winners, given here as ranges: what a class on a
     * similar machine should expect to see, run to run.
     */
    static void ranges(Path results, Report out) {
        serialRanges(new Results(results.resolve("short-run")), out);

        Results concurrency = new Results(results.resolve("concurrency"));
        StringBuilder perWait = new StringBuilder();
        for (int a = 0; a < ARCHS.length; a++) {
            append(perWait, LABELS[a] + " " + Md.f2(eventsPerWait(concurrency, seriesLogs(concurrency, "keepalive", ARCHS[a]))));
        }
        out.put("notes:events_per_wait_keepalive", perWait.toString());
        StringBuilder mpLogs = new StringBuilder();
        for (String log : seriesLogs(concurrency, "short", "mp")) mpLogs.append(concurrency.text(log));
        out.put("notes:mp_accept_split", acceptSplit(mpLogs.toString()));

        Results http = new Results(results.resolve("http"));
        for (String mode : new String[] {"keepalive", "close", "pipeline"}) {
            StringBuilder line = new StringBuilder();
            CompareRun run = CompareRun.of(http, HttpExperiment.compareFile("wrk", mode), Experiments.byName("http").threshold());
            for (String server : ServerCatalog.selection("http")) {
                if (run.has(server)) append(line, server + " " + range(run.rates(server)));
            }
            out.put("notes:http_wrk_" + mode, line.toString());
        }
    }

    /**
     * The serial ruler's QPS and p50 per run for LT, ET, MP and each server the other labs run on
     * it (the catalog's selection short-run-extra: bio for lab 1, vt and uring for lab 7) that has a
     * committed run; {@code notes:serial_missing} says which have none.
     */
    static void serialRanges(Results shortRun, Report out) {
        StringBuilder qps = new StringBuilder(), p50 = new StringBuilder();
        List<String> labels = new ArrayList<>(List.of(LABELS)), files = new ArrayList<>();
        for (String a : ARCHS) files.add("serial-" + a + ".json");
        List<String> missing = new ArrayList<>(), missingFiles = new ArrayList<>();
        for (String extra : ServerCatalog.selection("short-run-extra")) {
            String file = "serial-" + extra + ".json";
            if (shortRun.has(file)) {
                labels.add(extra.toUpperCase(Locale.ROOT));
                files.add(file);
            } else {
                missing.add("`" + extra + "`");
                missingFiles.add(file);
            }
        }
        for (int a = 0; a < files.size(); a++) {
            BenchReport b = shortRun.bench(files.get(a));
            append(qps, labels.get(a) + " " + range(b.column(Column.QPS)) + "/s");
            append(p50, labels.get(a) + " " + range(b.column(Column.P50)) + " µs");
        }
        out.put("notes:serial_qps", qps.toString());
        out.put("notes:serial_p50", p50.toString());
        out.put("notes:serial_missing", missing.isEmpty() ? ""
                : " No committed run holds " + joinAnd(missing) + " on the serial ruler (experiments/results/short-run/ has no "
                        + String.join(", ", missingFiles) + "): `make exp-short-run` runs " + (missing.size() == 1 ? "it" : "them") + ".");
    }

    /** {@code a, b and c}. */
    private static String joinAnd(List<String> items) {
        int last = items.size() - 1;
        return last == 0 ? items.get(0) : String.join(", ", items.subList(0, last)) + " and " + items.get(last);
    }

    /**
     * Lab 7's ranges: keep-alive echo and /ping per round for vt, --loops and mp beside lt and et
     * (exp-architectures), idle memory, and each io_uring mode beside et (exp-uring).
     */
    static void lab7Ranges(Path results, Report out) {
        Results arch = new Results(results.resolve("architectures"));
        StringBuilder echo = new StringBuilder(), ping = new StringBuilder(), idle = new StringBuilder();
        ArchitecturesRun run = new ArchitecturesRun(arch);
        Csv idleCsv = arch.csv("idle.csv");
        // lab 7's servers beside lt and et (the catalog's selection lab7); its uring lines take exp-uring's own
        for (String server : ServerCatalog.selection("lab7")) {
            if (!run.has(server, "echo-ka-50")) continue;
            append(echo, server + " " + range(ArchitecturesRun.finite(run.rates(server, "echo-ka-50"))) + "/s");
            append(ping, server + " " + range(ArchitecturesRun.finite(run.rates(server, ArchitecturesExperiment.PING))) + "/s");
            double[] rss = idleCsv.numbers("rss_kb", "server", server);
            if (rss.length > 0) append(idle, server + " " + Md.f0(rss[0] / 1024) + " MB");
        }
        out.put("notes:arch_echo_ka_50", echo.toString());
        out.put("notes:arch_ping_keepalive", ping.toString());
        out.put("notes:arch_idle_rss", idle.toString());
        Results uringResults = new Results(results.resolve("uring"));
        Csv uring = uringResults.csv("samples.csv");
        for (String workload : new String[] {"echo-1", "echo-50", "http-pipeline"}) {
            StringBuilder line = new StringBuilder();
            // the paired comparison's slices (one per server and round) where the run made one, else the counted cells' rounds
            String compared = "compare-" + workload + ".json";
            for (String server : UringExperiment.baselineAndModes()) {
                double[] rates = uringResults.has(compared) ? CompareRun.of(uringResults, compared, Experiments.byName("uring").threshold()).rates(server)
                        : uring.numbers("requests_per_s", "server", server, "workload", workload);
                append(line, server + " " + range(rates) + "/s");
            }
            out.put("notes:uring_" + workload.replace('-', '_'), line.toString());
        }
    }

    /** {@code w1 50.4%, w2 49.6% of 406181}: how the kernel spread an mp run's connections over its workers. */
    /**
     * A mode's server logs of one architecture in exp-concurrency: the one server that ran the whole
     * series ({@code server-MODE-ARCH.log}), or in a run in forks every fork's of every level
     * ({@code servers/MODE-C/ARCH-fork-F.log}, compare's {@code --server-logs}).
     */
    static List<String> seriesLogs(Results concurrency, String mode, String arch) {
        String one = "server-" + mode + "-" + arch + ".log";
        if (concurrency.has(one)) return List.of(one);
        List<String> forks = concurrency.files("servers/" + mode + "-*/" + arch + "-fork-*.log");
        if (forks.isEmpty()) throw new IllegalArgumentException(concurrency.dir.resolve(one) + " is missing, and no fork kept its server's log under "
                + concurrency.dir.resolve("servers") + " (run the experiment first)");
        return forks;
    }

    /** Events per wait over several servers' counters: all their events over all their waits. */
    static double eventsPerWait(Results r, List<String> logs) {
        long events = 0, waits = 0;
        for (String log : logs) {
            ServerCounters c = r.counters(log);
            events += c.get("events");
            waits += c.waits();
        }
        return waits == 0 ? 0.0 : (double) events / waits;
    }

    static String acceptSplit(String serverLog) {
        Pattern worker = Pattern.compile("(?m)^\\[(w\\d+)\\] counters: .*");
        Matcher m = worker.matcher(serverLog);
        Map<String, Long> accepts = new LinkedHashMap<>();
        long total = 0;
        while (m.find()) {
            long n = new ServerCounters(niolab.common.CountersLine.parse(m.group())).get("accepts");
            accepts.merge(m.group(1), n, Long::sum);
            total += n;
        }
        if (total == 0) throw new IllegalArgumentException("no worker counters in the mp server log");
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Long> e : accepts.entrySet()) append(sb, e.getKey() + " " + Md.f1(100.0 * e.getValue() / total) + "%");
        return sb + " of " + total + " connections";
    }

    /** {@code 1262–2337}: the lowest and highest of the runs. */
    static String range(double[] v) {
        return Md.f0(v[Stats.best(v, false)]) + "–" + Md.f0(v[Stats.best(v, true)]);
    }

    private static void append(StringBuilder sb, String item) {
        if (sb.length() > 0) sb.append(", ");
        sb.append(item);
    }
}

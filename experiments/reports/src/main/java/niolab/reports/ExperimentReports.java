package niolab.reports;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import niolab.common.AtomicFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Regenerates {@code experiments/exp-NAME.md} (and its charts) from
 * {@code experiments/results/NAME/} and {@code experiments/templates/exp-NAME.md}.
 *
 * <pre>
 *   java -jar reports.jar experiments short-run       # one report
 *   java -jar reports.jar experiments --check         # every report with results: compare only
 *   java -jar reports.jar summarize runs MANIFEST ...  # the scripts' numbers from their raw output
 * </pre>
 */
@Command(name = "reports", mixinStandardHelpOptions = true, subcommands = {ProfileShares.class, Summarize.class},
        description = "Regenerates experiments/exp-NAME.md and its charts from experiments/results/NAME/ and "
                + "experiments/templates/exp-NAME.md.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every report written (with --check: every report matches its results)",
                "1:a report differs from its results (--check), or results or a template cannot be read",
                "2:bad usage: a missing folder, an unknown option or experiment"})
public final class ExperimentReports implements Callable<Integer> {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "EXPERIMENTS_DIR",
            description = "The experiments folder: results/, templates/, and where the reports go.")
    private Path dir;

    @Parameters(index = "1..*", paramLabel = "NAME",
            description = "Experiments to regenerate (default: every one whose results are present).")
    private List<String> names = new ArrayList<>();

    @Option(names = "--check", description = "Compare with the files on disk instead of writing them.")
    private boolean check;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ExperimentReports()).execute(args));
    }

    @Override
    public Integer call() {
        List<Experiment> todo = chosen();
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        int differing = 0;
        try {
            // each report computed once: its files and the README's findings both read it
            Map<String, Report> computed = new LinkedHashMap<>();
            for (Experiment e : todo) computed.put(e.name(), compute(dir, e));
            for (Experiment e : todo) {
                if (check) {
                    for (String s : stale(dir, e, computed.get(e.name()))) {
                        err.println("stale: " + s + " does not match results/" + e.name());
                        differing++;
                    }
                    continue;
                }
                for (Map.Entry<Path, String> f : render(dir, e, computed.get(e.name())).entrySet()) {
                    Path p = dir.resolve(f.getKey());
                    Files.createDirectories(p.getParent());
                    AtomicFile.write(p, f.getValue());
                    out.println("wrote " + p);
                }
            }
            // every report regenerated: the findings in experiments/README.md follow them, and its
            // table follows the list of experiments
            Path readme = names.isEmpty() ? Findings.readme(dir) : null;
            if (readme != null) {
                String now = Files.readString(readme, StandardCharsets.UTF_8);
                String fresh = ExperimentsTable.render(Findings.render(dir, now, computed));
                if (!check) {
                    AtomicFile.write(readme, fresh);
                    out.println("wrote " + readme);
                } else if (!fresh.equals(now)) {
                    err.println("stale: experiments/README.md's findings or table of experiments do not match the results and Experiments.java");
                    differing++;
                }
            }
        } catch (IOException | RuntimeException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
        return differing == 0 ? 0 : 1;
    }

    /** The named experiments, or every one with results; a missing folder or an unknown name is a usage error (exit 2). */
    private List<Experiment> chosen() {
        // Optional in the grammar so that `summarize ...` needs no experiments folder before it.
        if (dir == null) throw new CommandLine.ParameterException(spec.commandLine(), "Missing required parameter: 'EXPERIMENTS_DIR'");
        if (names.isEmpty()) return withResults(dir);
        List<Experiment> chosen = new ArrayList<>();
        for (String n : names) {
            try {
                chosen.add(Experiments.byName(n));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        return chosen;
    }

    /**
     * One experiment's report computed from its results: every value and chart its template, the
     * README's findings and the course's notes read. Computing is the expensive part, so a caller
     * that needs a report twice keeps this one.
     */
    public static Report compute(Path experimentsDir, Experiment e) {
        Results results = new Results(experimentsDir.resolve("results").resolve(e.name()));
        Report report = new Report();
        report.put("env", results.environment(e.threshold()));
        report.put("threshold", e.threshold().declared());
        e.generate(results, report);
        return report;
    }

    /** Every experiment with results, computed once each, by name in the registry's order. */
    public static Map<String, Report> computeAll(Path experimentsDir) {
        Map<String, Report> all = new LinkedHashMap<>();
        for (Experiment e : withResults(experimentsDir)) all.put(e.name(), compute(experimentsDir, e));
        return all;
    }

    /** Every file the report consists of (the markdown and its charts), path relative to the experiments folder → content. */
    public static Map<Path, String> render(Path experimentsDir, Experiment e) throws IOException {
        return render(experimentsDir, e, compute(experimentsDir, e));
    }

    /** The same from a report already computed. */
    static Map<Path, String> render(Path experimentsDir, Experiment e, Report report) throws IOException {
        String templateName = "templates/exp-" + e.name() + ".md";
        String template = Files.readString(experimentsDir.resolve(templateName), StandardCharsets.UTF_8);
        Map<Path, String> files = new LinkedHashMap<>();
        files.put(Paths.get("exp-" + e.name() + ".md"),
                "<!-- Generated by `make exp-" + e.name() + "` from results/" + e.name() + "/ and " + templateName
                        + ": edit the template, not this file. -->\n" + report.fill(template, templateName));
        for (Map.Entry<String, String> c : report.charts.entrySet()) {
            files.put(Paths.get("charts", c.getKey()), c.getValue());
        }
        return files;
    }

    /** The registered experiments whose results are present (the ones a run without names regenerates). */
    public static List<Experiment> withResults(Path experimentsDir) {
        List<Experiment> out = new ArrayList<>();
        for (Experiment e : Experiments.all()) {
            if (Files.isRegularFile(experimentsDir.resolve("results").resolve(e.name()).resolve("env.json"))) out.add(e);
        }
        return out;
    }

    /** Files whose content on disk differs from what the results regenerate. */
    public static List<String> stale(Path experimentsDir, Experiment e) throws IOException {
        return stale(experimentsDir, e, compute(experimentsDir, e));
    }

    static List<String> stale(Path experimentsDir, Experiment e, Report report) throws IOException {
        List<String> stale = new ArrayList<>();
        for (Map.Entry<Path, String> f : render(experimentsDir, e, report).entrySet()) {
            Path p = experimentsDir.resolve(f.getKey());
            if (!Files.isRegularFile(p) || !Files.readString(p, StandardCharsets.UTF_8).equals(f.getValue())) {
                stale.add(experimentsDir.relativize(p).toString());
            }
        }
        return stale;
    }
}

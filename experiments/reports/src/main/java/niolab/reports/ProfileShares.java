package niolab.reports;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Formatter;
import java.util.List;
import java.util.Locale;
import niolab.common.AtomicFile;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.reports.ProfileCategories.Category;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code profile-shares FILE...}: where each profile's CPU went, by {@link ProfileCategories}:
 * a row per category with its share of the samples and, given the server's CPU per request,
 * the µs per request it stands for. {@code make profile} prints it after each run.
 */
@Command(name = "profile-shares", mixinStandardHelpOptions = true,
        description = "Prints each collapsed-stack profile's CPU by category (ProfileCategories).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:printed", "1:a file cannot be read or is not collapsed stacks", "2:bad usage"})
final class ProfileShares extends SummaryCommand {
    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Collapsed stacks (frame;frame COUNT a line), .gz or plain.")
    private List<Path> files;

    @Option(names = "--cpu-us-per-request", paramLabel = "US",
            description = "The server's CPU per request during the profile: adds a µs/request column.")
    private double cpuUsPerRequest;

    @Option(names = "--load", paramLabel = "JSON",
            description = "echo-bench's --json of the load during the profile: prints its rate and the server's CPU per request, "
                    + "which adds the µs/request column (unless --cpu-us-per-request says otherwise).")
    private Path load;

    @Option(names = "--flame-svg", paramLabel = "FILE",
            description = "Also draw the (first) profile as a static SVG flame graph, frames under 1% left out.")
    private Path flameSvg;

    @Override
    String summary() throws IOException {
        Formatter out = new Formatter(Locale.ROOT);
        if (load != null) {
            BenchReport b = new Results(load.toAbsolutePath().getParent()).bench(load.getFileName().toString());
            double cpu = Stats.median(b.serverCpuPerRun());
            out.format("load %.1f requests/s, server cpu %.2f us/request%n", Stats.median(b.column(Column.QPS)), cpu);
            if (cpuUsPerRequest == 0 && cpu > 0) cpuUsPerRequest = cpu;
        }
        for (Path f : files) {
            CollapsedProfile p = CollapsedProfile.read(f);
            out.format("%s: %d samples%n", f.getFileName(), p.samples());
            for (Category c : Category.values()) {
                if (p.samples(c) == 0) continue;
                out.format("  %-32s %5.1f%%", c.label, 100 * p.share(c));
                if (cpuUsPerRequest > 0) out.format("  %6.2f us/request", cpuUsPerRequest * p.share(c));
                out.format("%n");
            }
            if (flameSvg != null && f.equals(files.get(0))) {
                AtomicFile.write(flameSvg, new SvgFlameGraph(f.getFileName() + " (" + p.samples() + " samples)", ProfileExperiment.FLAME_MIN_SHARE).render(p));
            }
        }
        return out.toString();
    }
}

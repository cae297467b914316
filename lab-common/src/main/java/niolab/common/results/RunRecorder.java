package niolab.common.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What an experiment run records beside its results, printed as JSON for the script to save.
 * {@code scripts/lib.sh} runs it from echo-bench's jar with the JDK the run uses:
 *
 * <pre>
 *   java -cp echo-bench.jar niolab.common.results.RunRecorder env --repo .   &gt; env.json
 *   java -cp echo-bench.jar niolab.common.results.RunRecorder conditions DIR/.conditions-begin [--noise noise.json] &gt; conditions.json
 * </pre>
 * The environment comes from /proc, the JVM and git; SERVER_CPU, CLIENT_CPU and JAVA_OPTS are
 * recorded as the environment variables set them.
 */
@Command(name = "run-recorder", mixinStandardHelpOptions = true, subcommands = {RunRecorder.Env.class, RunRecorder.Conditions.class},
        description = "Prints a run's env.json or conditions.json.")
public final class RunRecorder implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new RunRecorder()).execute(args));
    }

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "say what to record: env or conditions");
    }

    @Command(name = "env", description = "The machine, JDK, pinning, limits and commit of a run, as env.json.")
    static final class Env implements Callable<Integer> {
        @Option(names = "--repo", defaultValue = ".", paramLabel = "DIR", description = "The work tree whose commit is recorded (default: ${DEFAULT-VALUE}).")
        Path repo;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().println(ResultsJson.pretty(environment(repo, System.getenv())));
            return 0;
        }
    }

    @Command(name = "conditions", description = "Load average and steal time since BEGIN (conditions_begin's snapshot), as conditions.json.")
    static final class Conditions implements Callable<Integer> {
        @Parameters(paramLabel = "BEGIN", description = "/proc/loadavg's first three fields, then /proc/stat's cpu line, as noted at the start.")
        Path begin;

        @Option(names = "--noise", paramLabel = "NAME", description = "The A/A comparison file beside conditions.json.")
        String noise;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            try {
                List<String> start = Files.readAllLines(begin, StandardCharsets.UTF_8);
                if (start.size() < 2) throw new IOException(begin + " holds no load average and /proc/stat line (run conditions_begin first)");
                String loadavgNow = loadavg(Files.readAllLines(Path.of("/proc/loadavg")).get(0));
                spec.commandLine().getOut().println(ResultsJson.pretty(conditions(start.get(0).trim(), start.get(1), loadavgNow, cpuLine(), noise)));
                return 0;
            } catch (NoSuchFileException e) {
                spec.commandLine().getErr().println("error: no such file: " + e.getFile());
                return 1;
            } catch (IOException | IllegalArgumentException e) {
                spec.commandLine().getErr().println("error: " + e.getMessage());
                return 1;
            }
        }
    }

    /** The conditions between two snapshots: load averages as noted, steal from the two {@code cpu} lines of /proc/stat. */
    static RunConditions conditions(String loadavgBefore, String cpuBefore, String loadavgAfter, String cpuAfter, String noise) {
        long[] before = stealAndTotal(cpuBefore), after = stealAndTotal(cpuAfter);
        long steal = after[0] - before[0], total = after[1] - before[1];
        double percent = total > 0 ? Math.round(10_000.0 * steal / total) / 100.0 : 0;
        return new RunConditions(loadavgBefore, loadavgAfter, steal, total, percent, noise);
    }

    /** user nice system idle iowait irq softirq steal: steal, and their sum (guest time is inside user). */
    private static long[] stealAndTotal(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        if (f.length < 9 || !f[0].equals("cpu")) throw new IllegalArgumentException("not /proc/stat's cpu line: " + cpuLine);
        long total = 0;
        for (int i = 1; i <= 8; i++) total += Long.parseLong(f[i]);
        return new long[] {Long.parseLong(f[8]), total};
    }

    static RunEnvironment environment(Path repo, Map<String, String> env) {
        return new RunEnvironment(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), cpuModel(),
                Runtime.getRuntime().availableProcessors(), memory(), System.getProperty("os.name") + " " + System.getProperty("os.version"),
                jdk(), env.getOrDefault("JAVA_OPTS", ""), orUnpinned(env.get("SERVER_CPU")), orUnpinned(env.get("CLIENT_CPU")),
                openFilesLimit(), read("/proc/sys/net/ipv4/ip_local_port_range").replace('\t', ' '),
                read("/proc/sys/net/ipv4/tcp_tw_reuse"), commit(repo));
    }

    /** The first line {@code java -version} prints, e.g. {@code openjdk version "25.0.3" 2026-04-21 LTS}. */
    static String jdk() {
        String launcher = System.getProperty("java.runtime.name", "").startsWith("OpenJDK") ? "openjdk" : "java";
        String date = System.getProperty("java.version.date");
        boolean lts = Runtime.version().optional().orElse("").startsWith("LTS");
        return launcher + " version \"" + System.getProperty("java.version") + "\"" + (date == null ? "" : " " + date) + (lts ? " LTS" : "");
    }

    /** MemTotal as {@code free -h} shows it: binary units, one decimal below 10 ({@code 7.8Gi}), whole above ({@code 23Gi}). */
    static String memory() {
        for (String line : read("/proc/meminfo").split("\n")) {
            if (line.startsWith("MemTotal:")) return humanSize(Long.parseLong(line.replaceAll("\\D", "")) * 1024);
        }
        return "";
    }

    static String humanSize(long bytes) {
        if (bytes < 1024) return bytes + "B";
        String units = "KMGTP";
        double value = bytes;
        for (int i = 0; i < units.length(); i++) {
            value /= 1024;
            String decimal = String.format(Locale.ROOT, "%.1f%ci", value, units.charAt(i));
            if (decimal.length() <= 5) return decimal;
            String whole = String.format(Locale.ROOT, "%d%ci", (long) value, units.charAt(i));
            if (whole.length() <= 5) return whole;
        }
        return (long) value + "Pi";
    }

    private static String cpuModel() {
        for (String line : read("/proc/cpuinfo").split("\n")) {
            if (line.startsWith("model name")) return line.substring(line.indexOf(':') + 1).strip();
        }
        return "unknown";
    }

    /** The soft limit on open files, as {@code ulimit -n} prints it. */
    private static String openFilesLimit() {
        for (String line : read("/proc/self/limits").split("\n")) {
            if (line.startsWith("Max open files")) return line.substring("Max open files".length()).trim().split("\\s+")[0];
        }
        return "";
    }

    /**
     * The short commit, marked when tracked files differ from it. Results and the reports and charts
     * generated from them are left aside: a rerun replaces the ones it is about to write, and an
     * experiment run between two others rewrites its own report.
     */
    private static String commit(Path repo) {
        String head = git(repo, "rev-parse", "--short", "HEAD");
        if (head == null || head.isEmpty()) return "unknown";
        String changes = git(repo, "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)experiments/results",
                ":(exclude)experiments/exp-*.md", ":(exclude)experiments/charts");
        return changes == null || changes.isEmpty() ? head : head + " " + RunEnvironment.DIRTY;
    }

    /** git's output, trimmed; null when git is missing, fails, or takes over 10 s. */
    private static String git(Path repo, String... args) {
        String[] command = new String[args.length + 3];
        command[0] = "git";
        command[1] = "-C";
        command[2] = repo.toString();
        System.arraycopy(args, 0, command, 3, args.length);
        Path out = null;
        try {
            // into a file, not a pipe: a git that hangs must not hang the read, only time out the wait
            out = Files.createTempFile("niolab-git", ".txt");
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? Files.readString(out).trim() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (out != null) out.toFile().delete();
        }
    }

    private static String orUnpinned(String cpus) {
        return cpus == null || cpus.isEmpty() ? "unpinned" : cpus;
    }

    private static String loadavg(String procLoadavg) {
        String[] f = procLoadavg.trim().split("\\s+");
        return f[0] + " " + f[1] + " " + f[2];
    }

    private static String cpuLine() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
            if (line.startsWith("cpu ")) return line;
        }
        throw new IOException("/proc/stat has no cpu line");
    }

    /**
     * A /proc file's text without its trailing newline; empty when it cannot be read (not Linux,
     * no such setting). Through a buffered reader: /proc files report size 0, and a sysctl read
     * a byte at a time gives only its first byte.
     */
    private static String read(String file) {
        try {
            return String.join("\n", Files.readAllLines(Path.of(file), StandardCharsets.UTF_8)).strip();
        } catch (IOException e) {
            return "";
        }
    }
}

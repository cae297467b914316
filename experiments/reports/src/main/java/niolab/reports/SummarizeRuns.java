package niolab.reports;

import static niolab.reports.Summarize.fixed;
import static niolab.reports.Summarize.read;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import niolab.common.CountersLine;
import niolab.common.WrkOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code runs MANIFEST --out NAME[=VALUE],...}: a CSV row per manifest row, its cells named by
 * {@code --out} (NAME=VALUE: the column NAME holds the value VALUE). A manifest row holds the
 * run's own cells (server, round ...) and names its raw files in these columns, relative to
 * the manifest's folder; each adds values:
 * <ul>
 * <li>{@code wrk}: wrk's text: requests, requests_per_s, errors;</li>
 * <li>{@code echo_bench}: echo-bench's --csv file: its columns (qps, p99_us, requests, errors ...);
 *     {@code echo_bench_warmup}: the warm-up run's, as warmup_requests;</li>
 * <li>{@code table}: the original write-up's table (echo-bench's or reference/serial-client's output): qps, p50_us,
 *     elapsed_s, client_cpu_us, requests, errors (its errors: line summed);
 *     {@code keepalive}: reference/keepalive-client's line: requests;</li>
 * <li>{@code redis_benchmark}: redis-benchmark --csv: requests_per_s;</li>
 * <li>{@code stats}: a server's {@code stats:} lines: stats.NAME, the change of each counter from the first to the last;</li>
 * <li>{@code classlog}: a -Xlog:class+load log: classes, and from where: from_cache (the CDS archive or
 *     the AOT cache), from_jdk_image, from_jar (from_jar_picocli of them), generated (lambdas, proxies);</li>
 * <li>{@code log}: a server's output: syscalls_per_req (io_uring_enter calls, or epoll_wait, read,
 *     write and accept calls), sqes_per_req, completions_per_enter, over the requests and warmup_requests;</li>
 * <li>{@code t0}, {@code t1}: EPOCHREALTIME values: elapsed_ms, elapsed_s;</li>
 * <li>{@code key}: the key of the run's samples in --proc ({@link ProcSamples}): cpu_ticks, cpu_ms,
 *     cpu_s, cpu_share (of one core over the row's seconds, or t1 - t0), voluntary, nonvoluntary, loop_wakeups,
 *     jit_ms, rss_kb, rss_mib, and per request: proc_cpu_us_per_req, ctx_switches_per_req, nonvoluntary_per_req,
 *     loop_user_us_per_req, loop_sys_us_per_req (empty where {@code loop_thread} is 0);</li>
 * <li>rate: the requests over the row's {@code seconds}, or over t1 - t0.</li>
 * </ul>
 */
@Command(name = "runs", mixinStandardHelpOptions = true, description = "A CSV row per run from the manifest's raw files.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:printed", "1:a file cannot be read, or a value is unknown", "2:bad usage"})
final class SummarizeRuns extends SummaryCommand {
    private static final Set<String> FILES = Set.of("wrk", "echo_bench", "echo_bench_warmup", "table", "keepalive",
            "redis_benchmark", "log", "classlog", "stats");
    private static final Pattern TABLE_ROW = Pattern.compile("(?m)^1 +([0-9.]+) +\\d+ +(\\d+) .* ([0-9.]+)$");
    private static final Pattern TABLE_CPU = Pattern.compile("(?m)^cpu: client ([0-9.]+) us/request");
    private static final Pattern KEEPALIVE = Pattern.compile("(?m)^requests (\\d+) in ");
    private static final Pattern TABLE_ERRORS = Pattern.compile("(?m)^errors: (.*)$");
    private static final Pattern COUNT = Pattern.compile("=(\\d+)");

    @Parameters(paramLabel = "MANIFEST", description = "A CSV, a row per run.")
    private Path manifest;

    @Option(names = "--proc", paramLabel = "FILE", description = "proc_sample's samples (scripts/lib.sh).")
    private Path proc;

    @Option(names = "--out", required = true, split = ",", paramLabel = "NAME[=VALUE]", description = "The columns printed.")
    private List<String> out;

    @Override
    String summary() throws IOException {
        Csv runs = Csv.parse(read(manifest), manifest.toString());
        ProcSamples samples = proc == null ? new ProcSamples() : ProcSamples.parse(read(proc), proc.toString());
        List<String> names = new ArrayList<>(), values = new ArrayList<>();
        for (String o : out) {
            int eq = o.indexOf('=');
            names.add(eq < 0 ? o : o.substring(0, eq));
            values.add(eq < 0 ? o : o.substring(eq + 1));
        }
        StringBuilder w = new StringBuilder(String.join(",", names)).append('\n');
        for (Map<String, String> run : runs.rows()) {
            Map<String, String> v = values(run, samples);
            List<String> cells = new ArrayList<>();
            for (String name : values) {
                String cell = v.get(name);
                if (cell == null) throw new IllegalArgumentException(manifest + ": no value " + name + " for " + run);
                cells.add(cell);
            }
            w.append(String.join(",", cells)).append('\n');
        }
        return w.toString();
    }

    private Map<String, String> values(Map<String, String> run, ProcSamples samples) throws IOException {
        Map<String, String> v = new LinkedHashMap<>();
        run.forEach((k, x) -> {
            if (!FILES.contains(k) && !x.isEmpty()) v.put(k, x);
        });
        String text;
        if ((text = file(run, "wrk")) != null) {
            WrkOutput wrk = WrkOutput.parse(text);
            v.put("requests", Long.toString(wrk.requests()));
            v.put("requests_per_s", fixed(wrk.requestsPerSecond(), 2));
            v.put("errors", Long.toString(wrk.errors()));
        }
        if ((text = file(run, "echo_bench")) != null) Csv.parse(text, run.get("echo_bench")).rows().get(0).forEach(v::putIfAbsent);
        if ((text = file(run, "echo_bench_warmup")) != null) {
            v.put("warmup_requests", Csv.parse(text, run.get("echo_bench_warmup")).rows().get(0).get("requests"));
        }
        if ((text = file(run, "table")) != null) {
            Matcher row = find(TABLE_ROW, text, run.get("table")), cpu = TABLE_CPU.matcher(text);
            double qps = Double.parseDouble(row.group(1)), elapsed = Double.parseDouble(row.group(3));
            v.put("qps", row.group(1));
            v.put("p50_us", row.group(2));
            v.put("elapsed_s", row.group(3));
            if (cpu.find()) v.put("client_cpu_us", cpu.group(1));
            v.putIfAbsent("requests", fixed(qps * elapsed, 0));
            long errors = 0;
            Matcher line = TABLE_ERRORS.matcher(text);
            if (line.find()) for (Matcher n = COUNT.matcher(line.group(1)); n.find(); ) errors += Long.parseLong(n.group(1));
            v.putIfAbsent("errors", Long.toString(errors));
        }
        if ((text = file(run, "keepalive")) != null) v.put("requests", find(KEEPALIVE, text, run.get("keepalive")).group(1));
        if ((text = file(run, "redis_benchmark")) != null) v.put("requests_per_s", redisRate(text, run.get("redis_benchmark")));
        if ((text = file(run, "classlog")) != null) classes(text, v);
        if ((text = file(run, "stats")) != null) stats(text, v);
        double seconds = Csv.number(v.get("seconds"));
        if (v.containsKey("t0") && v.containsKey("t1")) {
            double elapsed = Double.parseDouble(v.get("t1")) - Double.parseDouble(v.get("t0"));
            v.put("elapsed_ms", fixed(elapsed * 1000, 1));
            v.putIfAbsent("elapsed_s", fixed(elapsed, 3));
            if (!(seconds > 0)) seconds = elapsed;
        }
        double requests = Csv.number(v.get("requests"));
        if ((text = file(run, "log")) != null) counters(text, requests + Csv.number(v.getOrDefault("warmup_requests", "0")), v);
        // without --proc the key is not read: the values it would give are unknown, an error if asked for
        String key = proc == null ? "" : run.getOrDefault("key", "");
        ProcSamples.Delta d = key.isEmpty() ? null : samples.delta(key);
        if (!key.isEmpty() && d == null) throw new IllegalArgumentException("no samples of " + key + " in " + proc);
        if (d != null) proc(d, run, requests, seconds, v);
        if (seconds > 0 && requests >= 0) v.put("rate", fixed(requests / seconds, 1));
        run.forEach(v::putIfAbsent); // the empty cells, as they are
        return v;
    }

    private static void proc(ProcSamples.Delta d, Map<String, String> run, double requests, double seconds, Map<String, String> v) {
        double tick = 1.0 / ProcSamples.TICKS_PER_SECOND;
        v.put("cpu_ticks", Long.toString(d.cpuTicks()));
        v.put("cpu_ms", Long.toString(d.cpuTicks() * 1000 / ProcSamples.TICKS_PER_SECOND));
        v.put("cpu_s", fixed(d.cpuTicks() * tick, 2));
        v.put("voluntary", Long.toString(d.voluntary()));
        v.put("nonvoluntary", Long.toString(d.nonvoluntary()));
        v.put("loop_wakeups", Long.toString(d.loopVoluntary()));
        v.put("jit_ms", Long.toString(d.jitTicks() * 1000 / ProcSamples.TICKS_PER_SECOND));
        v.put("rss_kb", Long.toString(d.rssKb()));
        v.put("rss_mib", fixed(d.rssKb() / 1024.0, 1));
        if (seconds > 0) v.put("cpu_share", fixed(d.cpuTicks() * tick / seconds, 3));
        if (!(requests >= 0)) return; // no request count: nothing per request
        boolean hasRequests = requests > 0;
        v.put("proc_cpu_us_per_req", fixed(hasRequests ? d.cpuTicks() * tick * 1e6 / requests : 0, 2));
        v.put("ctx_switches_per_req", hasRequests ? fixed((d.voluntary() + d.nonvoluntary()) / requests, 4) : "");
        v.put("nonvoluntary_per_req", hasRequests ? fixed(d.nonvoluntary() / requests, 4) : "");
        boolean loop = hasRequests && d.loopThreads() && !"0".equals(run.get("loop_thread"));
        v.put("loop_user_us_per_req", loop ? fixed(d.loopUserTicks() * tick * 1e6 / requests, 3) : "");
        v.put("loop_sys_us_per_req", loop ? fixed(d.loopSysTicks() * tick * 1e6 / requests, 3) : "");
    }

    /** The server's own counts over its whole life (a warm-up and a measured run), from its last counters line. */
    private static void counters(String log, double requests, Map<String, String> v) {
        String line = CountersLine.last(log);
        Map<String, Long> c = line == null ? Map.of() : CountersLine.parse(line);
        Long syscalls = c.get("enters");
        if (syscalls == null && c.containsKey("epoll_waits")) {
            syscalls = c.get("epoll_waits") + c.getOrDefault("reads", 0L) + c.getOrDefault("writes", 0L) + c.getOrDefault("accepts", 0L);
        }
        Long sqes = c.get("submissions"), enters = c.get("enters");
        v.put("syscalls_per_req", syscalls != null && requests > 0 ? fixed(syscalls / requests, 3) : "");
        v.put("sqes_per_req", sqes != null && requests > 0 ? fixed(sqes / requests, 3) : "");
        v.put("completions_per_enter",
                enters != null && enters > 0 ? fixed(c.getOrDefault("events", 0L) / (double) enters, 2) : "");
    }

    /** Each counter's change from a server's first {@code stats:} line in the file to its last, as stats.NAME. */
    private static void stats(String lines, Map<String, String> v) {
        List<Map<String, Long>> stats = new ArrayList<>();
        for (String line : lines.split("\n")) {
            if (line.startsWith(CountersLine.STATS_PREFIX)) stats.add(CountersLine.parse(line));
        }
        if (stats.isEmpty()) return;
        Map<String, Long> first = stats.get(0);
        stats.get(stats.size() - 1).forEach((name, last) ->
                v.put("stats." + name, Long.toString(last - first.getOrDefault(name, 0L))));
    }

    /** Where the classes of a -Xlog:class+load log came from. */
    private static void classes(String log, Map<String, String> v) {
        long all = 0, cache = 0, image = 0, jar = 0, picocli = 0;
        for (String line : log.split("\n")) {
            if (line.isEmpty()) continue;
            all++;
            if (line.contains(" source: shared objects file")) cache++;
            else if (line.contains(" source: jrt:")) image++;
            else if (line.contains(" source: jar:") || line.contains(" source: file:")) {
                jar++;
                String[] f = line.trim().split("\\s+", 3);
                if (f.length > 1 && f[1].startsWith("picocli.")) picocli++;
            }
        }
        v.put("classes", Long.toString(all));
        v.put("from_cache", Long.toString(cache));
        v.put("from_jdk_image", Long.toString(image));
        v.put("from_jar", Long.toString(jar));
        v.put("from_jar_picocli", Long.toString(picocli));
        v.put("generated", Long.toString(all - cache - image - jar));
    }

    /** redis-benchmark --csv: a header, then "TEST","RPS",... a line per test; the first test's rate. */
    private static String redisRate(String text, String source) {
        for (String line : text.split("\n")) {
            String[] cells = line.replace("\"", "").split(",");
            if (cells.length > 1 && !cells[0].equals("test") && !cells[1].isEmpty()) return cells[1];
        }
        throw new IllegalArgumentException(source + ": no redis-benchmark result");
    }

    private String file(Map<String, String> run, String column) throws IOException {
        String name = run.get(column);
        return name == null || name.isEmpty() ? null : read(manifest.toAbsolutePath().getParent().resolve(name));
    }

    private static Matcher find(Pattern p, String text, String source) {
        Matcher m = p.matcher(text);
        if (!m.find()) throw new IllegalArgumentException(source + ": no line like " + p.pattern());
        return m;
    }
}

package niolab.reports;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import niolab.common.ServerCatalog;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Column;
import niolab.common.stats.Interval;
import niolab.reports.ProfileCategories.Category;

/**
 * exp-profile: every server profiled under keep-alive /ping, pipelined /ping and keep-alive echo
 * ({@code make profile}'s runs, one per server and mode), its CPU split by {@link ProfileCategories}:
 * a table and a stacked bar chart per mode, a flame graph per profile, and what vt pays that lt
 * does not, in µs per request.
 *
 * <p>Results: {@code SERVER-MODE.collapsed.gz} (the collapsed stacks) and {@code SERVER-MODE.json}
 * (the echo-bench run that was profiled: its rate and the server's CPU per request).
 */
public final class ProfileExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = new Threshold(0.05, "the profiled claims are ratios between designs, read as in exp-architectures at 5%");

    @Override
    public Threshold threshold() {
        return THRESHOLD;
    }

    static final String[] SERVERS = ServerCatalog.selection("profile").toArray(new String[0]);
    static final String[] MODES = {"keepalive", "pipelined", "echo", "short"};
    static final String[] MODE_LABELS = {"keep-alive /ping", "pipelined /ping", "keep-alive echo", "short connections"};
    /**
     * The JDK calls of lt's accept-to-close path, each by the frames (class.method, as the
     * profiler names them) a sample must pass through to be that call's: the one place they are kept.
     */
    static final String[][] LT_SHORT_CALLS = {
        {"accept", "sun/nio/ch/ServerSocketChannelImpl.accept"},
        {"configureBlocking", "java/nio/channels/spi/AbstractSelectableChannel.configureBlocking"},
        {"setOption", "sun/nio/ch/SocketChannelImpl.setOption"},
        {"register", "java/nio/channels/spi/AbstractSelectableChannel.register", "sun/nio/ch/EPollSelectorImpl.processUpdateQueue"},
        {"close", "java/nio/channels/spi/AbstractInterruptibleChannel.close", "sun/nio/ch/SelectorImpl.processDeregisterQueue"},
    };
    /** The flame graphs leave out frames under this share of the samples, so that they stay small. */
    static final double FLAME_MIN_SHARE = 0.01;
    /** Profiles sample every millisecond: a share is known to about this much (the claims' noise). */

    @Override
    public String name() {
        return "profile";
    }

    @Override
    public void generate(Results r, Report out) {
        List<String> flames = new ArrayList<>();
        double jitMax = 0;
        String jitWhere = "no profile";
        for (int m = 0; m < MODES.length; m++) {
            String mode = MODES[m];
            List<String> present = new ArrayList<>();
            for (String s : SERVERS) if (r.has(s + "-" + mode + ".collapsed.gz")) present.add(s);
            List<Category> seen = new ArrayList<>();
            List<CollapsedProfile> profiles = new ArrayList<>();
            for (String s : present) profiles.add(CollapsedProfile.read(r.dir.resolve(s + "-" + mode + ".collapsed.gz")));
            for (Category c : Category.values()) {
                for (CollapsedProfile p : profiles) {
                    if (p.samples(c) > 0) {
                        seen.add(c);
                        break;
                    }
                }
            }
            List<String> header = new ArrayList<>(List.of("server", "requests/s", "server CPU µs/request", "samples"));
            List<String> labels = new ArrayList<>();
            for (Category c : seen) labels.add(c.label);
            header.addAll(labels);
            List<List<String>> rows = new ArrayList<>();
            SvgStackedBars chart = new SvgStackedBars("Where the server's CPU goes: " + MODE_LABELS[m], labels);
            for (int i = 0; i < present.size(); i++) {
                String s = present.get(i);
                CollapsedProfile p = profiles.get(i);
                BenchReport run = r.bench(s + "-" + mode + ".json");
                List<String> row = new ArrayList<>(List.of(s, Md.f0(Stats.mean(run.column(Column.QPS))), Md.f2(Stats.median(run.serverCpuPerRun())), Long.toString(p.samples())));
                double[] shares = new double[seen.size()];
                for (int k = 0; k < seen.size(); k++) {
                    shares[k] = p.share(seen.get(k));
                    row.add(Md.f1(100 * shares[k]) + "%");
                }
                rows.add(row);
                chart.bar(s, shares);
                if (p.share(Category.JIT) >= jitMax) {
                    jitMax = p.share(Category.JIT);
                    jitWhere = s + " under " + MODE_LABELS[m];
                }
                String file = "profile-flame-" + s + "-" + mode + ".svg";
                out.chart(file, new SvgFlameGraph(s + ", " + MODE_LABELS[m] + " (" + p.samples() + " samples)", FLAME_MIN_SHARE).render(p));
                flames.add("[" + s + " " + MODE_LABELS[m] + "](charts/" + file + ")");
            }
            out.put("table_" + mode, rows.isEmpty() ? "Not profiled in this run." : Md.table(header, rows));
            if (!present.isEmpty()) out.chart("profile-" + mode + ".svg", chart.render());
            String label = Character.toUpperCase(MODE_LABELS[m].charAt(0)) + MODE_LABELS[m].substring(1);
            out.put("chart_" + mode, present.isEmpty() ? "" : "![" + label + "](charts/profile-" + mode + ".svg)");
            out.put("servers_" + mode, present.isEmpty() ? "none" : String.join(", ", present));
            out.put("largest_" + mode, largestLine(present, profiles));
        }
        out.put("flame_graphs", String.join(" · ", flames));
        out.put("jit_max", Md.f1(100 * jitMax) + "% (" + jitWhere + ")");
        parser(r, out);
        vtVersusLt(r, out);
        ltShortCalls(r, out);
    }

    /** lt's short connections: each JDK call's share of the samples and so its µs per connection, from the short-mode profile. */
    private static void ltShortCalls(Results r, Report out) {
        if (!r.has("lt-short.collapsed.gz")) {
            out.put("lt_short_calls", "not profiled in this run (`make exp-profile` profiles SHORT_SERVERS, lt et c by default, under short connections)");
            return;
        }
        CollapsedProfile p = CollapsedProfile.read(r.dir.resolve("lt-short.collapsed.gz"));
        double cpu = Stats.median(r.bench("lt-short.json").serverCpuPerRun());
        List<String> parts = new ArrayList<>();
        double sum = 0;
        for (String[] call : LT_SHORT_CALLS) {
            double share = p.samples() == 0 ? 0 : (double) p.samplesThrough(List.of(call).subList(1, call.length)) / p.samples();
            sum += share;
            parts.add("`" + call[0] + "` " + Md.f1(100 * share) + "% (" + Md.f2(cpu * share) + " µs)");
        }
        String c = r.has("c-short.json") ? Md.f2(Stats.median(r.bench("c-short.json").serverCpuPerRun())) : null;
        out.put("lt_short_calls", "lt used " + Md.f2(cpu) + " µs of server CPU per connection" + (c == null ? "" : " (the C server " + c + ")")
                + "; the JDK calls of its accept-to-close path took, of its " + p.samples() + " samples: " + String.join(", ", parts)
                + ": together " + Md.f1(100 * sum) + "% (" + Md.f2(cpu * sum) + " µs per connection)");
    }

    /** Per server, its largest category: "lt: kernel TCP send (31.0%), vt: ...". */
    private static String largestLine(List<String> servers, List<CollapsedProfile> profiles) {
        if (servers.isEmpty()) return "not profiled in this run";
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            CollapsedProfile p = profiles.get(i);
            Category top = Category.OTHER;
            for (Category c : Category.values()) if (p.samples(c) > p.samples(top)) top = c;
            parts.add(servers.get(i) + ": " + top.label + " (" + Md.f1(100 * p.share(top)) + "%)");
        }
        return String.join("; ", parts);
    }

    /** The HTTP parser under pipelining: its share and µs per request in each server that runs it. */
    private static void parser(Results r, Report out) {
        List<String> parts = new ArrayList<>();
        for (String s : SERVERS) {
            if (!r.has(s + "-pipelined.collapsed.gz")) continue;
            CollapsedProfile p = CollapsedProfile.read(r.dir.resolve(s + "-pipelined.collapsed.gz"));
            if (p.samples(Category.HTTP_PARSER) == 0) continue;
            double cpu = Stats.median(r.bench(s + "-pipelined.json").serverCpuPerRun());
            int rank = 1;
            for (Category c : Category.values()) if (p.samples(c) > p.samples(Category.HTTP_PARSER)) rank++;
            parts.add(s + " " + Md.f1(100 * p.share(Category.HTTP_PARSER)) + "% (" + Md.f2(cpu * p.share(Category.HTTP_PARSER))
                    + " µs/request, " + ordinal(rank) + " of its categories)");
        }
        out.put("parser_pipelined", parts.isEmpty() ? "no profile with the parser in it" : String.join(", ", parts));
    }

    /** What vt pays that lt does not: each category's µs per request, vt minus lt, largest first; and the claims. */
    private static void vtVersusLt(Results r, Report out) {
        List<Claim> claims = new ArrayList<>();
        for (String mode : List.of("keepalive", "echo")) {
            if (!r.has("vt-" + mode + ".collapsed.gz") || !r.has("lt-" + mode + ".collapsed.gz")) {
                out.put("vt_extra_" + mode, "not measured (no vt or no lt profile in this run)");
                continue;
            }
            CollapsedProfile vt = CollapsedProfile.read(r.dir.resolve("vt-" + mode + ".collapsed.gz"));
            CollapsedProfile lt = CollapsedProfile.read(r.dir.resolve("lt-" + mode + ".collapsed.gz"));
            BenchReport vtRun = r.bench("vt-" + mode + ".json"), ltRun = r.bench("lt-" + mode + ".json");
            double vtCpu = Stats.median(vtRun.serverCpuPerRun()), ltCpu = Stats.median(ltRun.serverCpuPerRun());
            List<double[]> diffs = new ArrayList<>();
            for (Category c : Category.values()) diffs.add(new double[] {c.ordinal(), vtCpu * vt.share(c) - ltCpu * lt.share(c)});
            diffs.sort(Comparator.comparingDouble((double[] d) -> -d[1]));
            List<String> top = new ArrayList<>();
            for (int i = 0; i < 3 && diffs.get(i)[1] > 0; i++) {
                top.add(Category.values()[(int) diffs.get(i)[0]].label + " " + (Md.f2(diffs.get(i)[1]).startsWith("-") ? "" : "+") + Md.f2(diffs.get(i)[1]) + " µs");
            }
            out.put("vt_extra_" + mode, "vt used " + Md.f2(vtCpu) + " µs of server CPU per request against lt's " + Md.f2(ltCpu) + " ("
                    + Md.f2(vtCpu / ltCpu) + "×, " + (vtCpu >= ltCpu ? "+" : "") + Md.f2(vtCpu - ltCpu) + " µs); the categories where vt spends most beyond lt: "
                    + (top.isEmpty() ? "none" : String.join(", ", top)));
            if (mode.equals("keepalive")) {
                double ratio = vtCpu / ltCpu;
                claims.add(Claim.atMost("vt's server CPU per keep-alive /ping within 1.25× lt's (one profiled run each)",
                        new Interval(ratio, ratio, ratio), 1, 1.25));
            } else {
                double ratio = Stats.mean(vtRun.column(Column.QPS)) / Stats.mean(ltRun.column(Column.QPS));
                claims.add(Claim.atLeast("vt's keep-alive echo rate at least 0.7× lt's (one profiled run each, echo-bench)",
                        new Interval(ratio, ratio, ratio), 1, 0.7));
            }
        }
        Claim.report(claims, "vt / lt", out);
    }

    private static String ordinal(int n) {
        return n + (n == 1 ? "st" : n == 2 ? "nd" : n == 3 ? "rd" : "th");
    }
}

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
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class ProfileExperiment implements Experiment {
    /** The smallest difference that matters to this report, declared before any run, with why. */
    static final Threshold THRESHOLD = Threshold.of(0.05, "ratios between designs, read at {size} as in exp-architectures");

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
    /** exp-vt's targets, checked here on the profiled runs: vt's CPU per keep-alive /ping at most, its echo rate at least, × lt's. */
    static final double VT_CPU_BOUND = 1.25, VT_ECHO_BOUND = 0.7;
    /** Where the vt claims' figures come from, said in each statement: no rounds, so no interval. */
    private static final String ONE_RUN = "one profiled run each";
    /** The flame graphs leave out frames under this share of the samples, so that they stay small. */
    static final double FLAME_MIN_SHARE = 0.01;
    /** Profiles sample every millisecond: a share is known to about this much (the claims' noise). */

    @Override
    public String name() {
        return "profile";
    }

    /** One server profiled in one mode: its collapsed stacks and the echo-bench run it served. */
    record Profiled(String server, CollapsedProfile profile, BenchReport run) {
        double cpu() {
            return Stats.median(run.serverCpuPerRun());
        }
    }

    /** The run: per mode (MODES' order) the servers profiled in it, in SERVERS' order; the C server's CPU per short connection, if it ran. */
    record Data(List<List<Profiled>> modes, Double cShortCpu) {
    }

    /** vt against lt in one mode: their CPU per request, and the (up to three) categories where vt spends most beyond lt, in µs per request. */
    record VtOverLt(String mode, double vtCpu, double ltCpu, List<Category> top, List<Double> extra) {
    }

    /** The HTTP parser in one server's pipelined profile: its share, µs per request and rank among the server's categories. */
    record Parser(String server, double share, double us, int rank) {
    }

    /** lt's short connections: its CPU per connection, its samples and each of LT_SHORT_CALLS' share of them. */
    record LtShort(double cpu, long samples, double[] shares, double sum) {
    }

    /**
     * What the run found: per mode the categories any profile has and each server's largest; the
     * JIT's largest share and where; the parser under pipelining; vt against lt (absent where
     * either was not profiled) and the claims; lt's short connections' JDK calls (null: not profiled).
     */
    record Findings(Data data, List<List<Category>> seen, List<List<Category>> largest, double jitMax, Profiled jitWhere, int jitMode,
            List<Parser> parser, List<VtOverLt> vt, List<Claim> claims, LtShort ltShort) {
    }

    static Data load(Results r) {
        List<List<Profiled>> modes = new ArrayList<>();
        for (String mode : MODES) {
            List<Profiled> present = new ArrayList<>();
            for (String s : SERVERS) {
                if (r.has(s + "-" + mode + ".collapsed.gz")) {
                    present.add(new Profiled(s, CollapsedProfile.read(r.dir.resolve(s + "-" + mode + ".collapsed.gz")), r.bench(s + "-" + mode + ".json")));
                }
            }
            modes.add(present);
        }
        return new Data(modes, r.has("c-short.json") ? Stats.median(r.bench("c-short.json").serverCpuPerRun()) : null);
    }

    static Findings analyse(Data d) {
        List<List<Category>> seen = new ArrayList<>(), largest = new ArrayList<>();
        double jitMax = 0;
        Profiled jitWhere = null;
        int jitMode = -1;
        for (int m = 0; m < MODES.length; m++) {
            List<Category> modeSeen = new ArrayList<>(), modeLargest = new ArrayList<>();
            for (Category c : Category.values()) {
                for (Profiled x : d.modes.get(m)) {
                    if (x.profile.samples(c) > 0) {
                        modeSeen.add(c);
                        break;
                    }
                }
            }
            for (Profiled x : d.modes.get(m)) {
                CollapsedProfile p = x.profile;
                if (p.share(Category.JIT) >= jitMax) {
                    jitMax = p.share(Category.JIT);
                    jitWhere = x;
                    jitMode = m;
                }
                Category top = Category.OTHER;
                for (Category c : Category.values()) if (p.samples(c) > p.samples(top)) top = c;
                modeLargest.add(top);
            }
            seen.add(modeSeen);
            largest.add(modeLargest);
        }
        List<Parser> parser = new ArrayList<>();
        for (Profiled x : profiled(d, "pipelined")) {
            CollapsedProfile p = x.profile;
            if (p.samples(Category.HTTP_PARSER) == 0) continue;
            int rank = 1;
            for (Category c : Category.values()) if (p.samples(c) > p.samples(Category.HTTP_PARSER)) rank++;
            parser.add(new Parser(x.server, p.share(Category.HTTP_PARSER), x.cpu() * p.share(Category.HTTP_PARSER), rank));
        }
        List<VtOverLt> vt = new ArrayList<>();
        List<Claim> claims = new ArrayList<>();
        for (String mode : List.of("keepalive", "echo")) {
            Profiled v = find(d, mode, "vt"), l = find(d, mode, "lt");
            if (v == null || l == null) continue;
            double vtCpu = v.cpu(), ltCpu = l.cpu();
            List<double[]> diffs = new ArrayList<>();
            for (Category c : Category.values()) diffs.add(new double[] {c.ordinal(), vtCpu * v.profile.share(c) - ltCpu * l.profile.share(c)});
            diffs.sort(Comparator.comparingDouble((double[] x) -> -x[1]));
            List<Category> top = new ArrayList<>();
            List<Double> extra = new ArrayList<>();
            for (int i = 0; i < 3 && diffs.get(i)[1] > 0; i++) {
                top.add(Category.values()[(int) diffs.get(i)[0]]);
                extra.add(diffs.get(i)[1]);
            }
            vt.add(new VtOverLt(mode, vtCpu, ltCpu, top, extra));
            if (mode.equals("keepalive")) {
                double ratio = vtCpu / ltCpu;
                claims.add(Claim.atMost("vt's server CPU per keep-alive /ping within " + Md.f2(VT_CPU_BOUND) + "× lt's (" + ONE_RUN + ")",
                        new Interval(ratio, ratio, ratio), 1, VT_CPU_BOUND));
            } else {
                double ratio = Stats.mean(v.run.column(Column.QPS)) / Stats.mean(l.run.column(Column.QPS));
                claims.add(Claim.atLeast("vt's keep-alive echo rate at least " + Md.f1(VT_ECHO_BOUND) + "× lt's (" + ONE_RUN + ", echo-bench)",
                        new Interval(ratio, ratio, ratio), 1, VT_ECHO_BOUND));
            }
        }
        LtShort ltShort = null;
        Profiled lt = find(d, "short", "lt");
        if (lt != null) {
            CollapsedProfile p = lt.profile;
            double[] shares = new double[LT_SHORT_CALLS.length];
            double sum = 0;
            for (int i = 0; i < shares.length; i++) {
                String[] call = LT_SHORT_CALLS[i];
                shares[i] = p.samples() == 0 ? 0 : (double) p.samplesThrough(List.of(call).subList(1, call.length)) / p.samples();
                sum += shares[i];
            }
            ltShort = new LtShort(lt.cpu(), p.samples(), shares, sum);
        }
        return new Findings(d, seen, largest, jitMax, jitWhere, jitMode, parser, vt, claims, ltShort);
    }

    private static List<Profiled> profiled(Data d, String mode) {
        return d.modes.get(List.of(MODES).indexOf(mode));
    }

    private static Profiled find(Data d, String mode, String server) {
        for (Profiled x : profiled(d, mode)) if (x.server.equals(server)) return x;
        return null;
    }

    @Override
    public void generate(Results r, Report out) {
        render(analyse(load(r)), out);
    }

    static void render(Findings f, Report out) {
        List<String> flames = new ArrayList<>();
        for (int m = 0; m < MODES.length; m++) {
            String mode = MODES[m];
            List<Profiled> present = f.data.modes.get(m);
            List<Category> seen = f.seen.get(m);
            List<String> header = new ArrayList<>(List.of("server", "requests/s", "server CPU µs/request", "samples"));
            List<String> labels = new ArrayList<>();
            for (Category c : seen) labels.add(c.label);
            header.addAll(labels);
            List<List<String>> rows = new ArrayList<>();
            List<String> largest = new ArrayList<>();
            SvgStackedBars chart = new SvgStackedBars("Where the server's CPU goes: " + MODE_LABELS[m], labels);
            for (int i = 0; i < present.size(); i++) {
                Profiled x = present.get(i);
                CollapsedProfile p = x.profile;
                List<String> row = new ArrayList<>(List.of(x.server, Md.f0(Stats.mean(x.run.column(Column.QPS))), Md.f2(x.cpu()), Long.toString(p.samples())));
                double[] shares = new double[seen.size()];
                for (int k = 0; k < seen.size(); k++) {
                    shares[k] = p.share(seen.get(k));
                    row.add(Md.f1(100 * shares[k]) + "%");
                }
                rows.add(row);
                chart.bar(x.server, shares);
                String file = "profile-flame-" + x.server + "-" + mode + ".svg";
                out.chart(file, new SvgFlameGraph(x.server + ", " + MODE_LABELS[m] + " (" + p.samples() + " samples)", FLAME_MIN_SHARE).render(p));
                flames.add("[" + x.server + " " + MODE_LABELS[m] + "](charts/" + file + ")");
                Category top = f.largest.get(m).get(i);
                largest.add(x.server + ": " + top.label + " (" + Md.f1(100 * p.share(top)) + "%)");
            }
            out.put("table_" + mode, rows.isEmpty() ? "Not profiled in this run." : Md.table(header, rows));
            if (!present.isEmpty()) out.chart("profile-" + mode + ".svg", chart.render());
            String label = Character.toUpperCase(MODE_LABELS[m].charAt(0)) + MODE_LABELS[m].substring(1);
            out.put("chart_" + mode, present.isEmpty() ? "" : "![" + label + "](charts/profile-" + mode + ".svg)");
            List<String> names = new ArrayList<>();
            for (Profiled x : present) names.add(x.server);
            out.put("servers_" + mode, present.isEmpty() ? "none" : String.join(", ", names));
            out.put("largest_" + mode, present.isEmpty() ? "not profiled in this run" : String.join("; ", largest));
        }
        out.put("flame_graphs", String.join(" · ", flames));
        out.put("jit_max", Md.f1(100 * f.jitMax) + "% (" + (f.jitWhere == null ? "no profile" : f.jitWhere.server + " under " + MODE_LABELS[f.jitMode]) + ")");
        List<String> parts = new ArrayList<>();
        for (Parser x : f.parser) {
            parts.add(x.server + " " + Md.f1(100 * x.share) + "% (" + Md.f2(x.us) + " µs/request, " + ordinal(x.rank) + " of its categories)");
        }
        out.put("parser_pipelined", parts.isEmpty() ? "no profile with the parser in it" : String.join(", ", parts));
        for (String mode : List.of("keepalive", "echo")) out.put("vt_extra_" + mode, "not measured (no vt or no lt profile in this run)");
        for (VtOverLt v : f.vt) {
            List<String> top = new ArrayList<>();
            for (int i = 0; i < v.top.size(); i++) {
                String us = Md.f2(v.extra.get(i));
                top.add(v.top.get(i).label + " " + (us.startsWith("-") ? "" : "+") + us + " µs");
            }
            out.put("vt_extra_" + v.mode, "vt used " + Md.f2(v.vtCpu) + " µs of server CPU per request against lt's " + Md.f2(v.ltCpu) + " ("
                    + Md.f2(v.vtCpu / v.ltCpu) + "×, " + (v.vtCpu >= v.ltCpu ? "+" : "") + Md.f2(v.vtCpu - v.ltCpu) + " µs); the categories where vt spends most beyond lt: "
                    + (top.isEmpty() ? "none" : String.join(", ", top)));
        }
        Claim.report(f.claims, "vt / lt", out);
        LtShort lt = f.ltShort;
        out.put("lt_short", lt != null);
        if (lt == null) return;
        List<String> calls = new ArrayList<>();
        for (int i = 0; i < LT_SHORT_CALLS.length; i++) {
            calls.add("`" + LT_SHORT_CALLS[i][0] + "` " + Md.f1(100 * lt.shares[i]) + "% (" + Md.f2(lt.cpu * lt.shares[i]) + " µs)");
        }
        out.put("lt_short_cpu", Md.f2(lt.cpu));
        out.put("c_short_cpu", f.data.cShortCpu == null ? "" : Md.f2(f.data.cShortCpu));
        out.put("lt_short_samples", Long.toString(lt.samples));
        out.put("lt_short_calls", String.join(", ", calls));
        out.put("lt_short_share", Md.f1(100 * lt.sum));
        out.put("lt_short_us", Md.f2(lt.cpu * lt.sum));
    }

    private static String ordinal(int n) {
        return n + (n == 1 ? "st" : n == 2 ? "nd" : n == 3 ? "rd" : "th");
    }
}

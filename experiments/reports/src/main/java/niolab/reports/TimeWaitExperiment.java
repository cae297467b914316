package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Interval;
import niolab.common.results.BenchReport.Run;
import niolab.common.results.RunEnvironment;

/**
 * exp-time-wait: short connections against a 1000-port ephemeral range in a network namespace
 * (experiments/scripts/exp-time-wait.sh): outcomes, TIME-WAIT over time, the exhaustion point.
 */
public final class TimeWaitExperiment implements Experiment {
    @Override
    public String name() {
        return "time-wait";
    }

    /** One scenario's results. */
    static final class Scenario {
        final String name, reuse, options;
        /** echo-bench's mode: the serial client makes no probe connect; keep-alive needs no accept per request. */
        final boolean serial, keepalive;
        final double attempted, ok, ports, errors, timeWaitEnd, elapsed;
        final double[] twT, tw;
        final ServerCounters counters;
        final double clientTw, serverTw;
        /** Per interval: end time and cumulative successful requests and errors. */
        final double[] t, okSoFar, errorsSoFar;
        final String portRange;
        /** The client's warm-up connections before the timed run (its recorded setting; 0 with --cold-client). */
        final double warmupConnections;

        Scenario(Results r, Map<String, String> row) {
            name = row.get("scenario");
            reuse = row.get("tw_reuse");
            options = row.get("options");
            BenchReport bench = r.bench("bench-" + name + ".json");
            Run run = bench.runs().get(0);
            serial = bench.config().mode().equals("serial-short");
            keepalive = bench.config().keepalive();
            attempted = run.attempted();
            ok = run.requests();
            ports = run.errors().portsExhausted();
            errors = run.errors().total();
            timeWaitEnd = run.timeWait() == null ? Double.NaN : run.timeWait();
            elapsed = run.elapsedS();
            portRange = bench.environment().localPortRange();
            warmupConnections = bench.config().clientWarmupRequests() == null ? 0 : bench.config().clientWarmupRequests();
            List<Interval> iv = run.intervals();
            t = new double[iv.size()];
            okSoFar = new double[iv.size()];
            errorsSoFar = new double[iv.size()];
            for (int i = 0; i < iv.size(); i++) {
                t[i] = iv.get(i).tS();
                okSoFar[i] = (i == 0 ? 0 : okSoFar[i - 1]) + iv.get(i).requests();
                errorsSoFar[i] = (i == 0 ? 0 : errorsSoFar[i - 1]) + iv.get(i).errors();
            }
            Csv samples = r.csv("tw-" + name + ".csv");
            twT = samples.numbers("t_s");
            tw = samples.numbers("tw");
            // a sample taken when /proc/net/sockstat had no TCP line is empty: no socket counted
            for (int i = 0; i < tw.length; i++) tw[i] = Double.isNaN(tw[i]) ? 0 : tw[i];
            counters = r.counters("counters-" + name + ".txt");
            double c = 0, s = 0;
            for (Map<String, String> h : r.csv("holders-" + name + ".csv").rows()) {
                if (h.get("side").equals("client")) c = Csv.number(h.get("tw"));
                else s = Csv.number(h.get("tw"));
            }
            clientTw = c;
            serverTw = s;
        }

        double peakTw() {
            double m = 0;
            for (double v : tw) m = Math.max(m, v);
            return m;
        }

        /** "1000 of 3000 requests succeeded, 2000 failed with ports_exhausted (peak TIME-WAIT 1000)". */
        String outcome() {
            String s = Md.f0(ok) + " of " + Md.f0(attempted) + " requests succeeded";
            s += ports > 0 ? ", " + Md.f0(ports) + " failed with ports_exhausted" : ", none failed with ports_exhausted";
            if (errors > ports) s += " and " + Md.f0(errors - ports) + " with other errors";
            return s + " (peak TIME-WAIT " + peakCell() + ")";
        }

        /** The peak, and how much of it the client's warm-up connections account for when it had one. */
        String peakCell() {
            if (warmupConnections == 0) return Md.f0(peakTw());
            return Md.f0(peakTw()) + ", " + Md.f0(Math.min(peakTw(), warmupConnections)) + " of them from the client's "
                    + Md.f0(warmupConnections) + " warm-up connections";
        }

        /**
         * The TIME-WAIT sockets the timed connections left, at most: the peak less the warm-up's,
         * which all outlive the run (a TIME-WAIT socket lasts 60 s; the warm-up closes normally).
         */
        double timedTw() {
            return Math.max(0, peakTw() - warmupConnections);
        }

        String twReading() {
            return TimeWaitExperiment.twReading(peakTw(), warmupConnections, ok);
        }

        /** Where the first error shows in the interval series, or that none did. */
        String exhaustion() {
            for (int i = 0; i < t.length; i++) {
                if (errorsSoFar[i] > 0) {
                    double before = i == 0 ? 0 : okSoFar[i - 1];
                    return "first errors in the interval ending at " + Md.f2(t[i]) + " s, after " + Md.f0(before)
                            + " to " + Md.f0(okSoFar[i]) + " successful requests";
                }
            }
            return "no errors";
        }

        /** Whether requests succeeded in the intervals after the one with the first errors, in words. */
        String resumed() {
            for (int i = 0; i < t.length; i++) {
                if (errorsSoFar[i] > 0) {
                    double later = ok - okSoFar[i];
                    return later > 0 ? Md.f0(later) + " requests succeeded in the intervals after the first errors: successes resumed"
                            : "no request succeeded after the interval of the first errors: successes did not resume within the run";
                }
            }
            return "no errors, so nothing to resume";
        }
    }

    /**
     * What a scenario's sampled TIME-WAIT peak says about its own timed connections, in words:
     * a client warm-up's connections close normally and their sockets outlive the run, so they
     * are counted out of the peak (at most {@code peak - warmup} are the timed connections').
     */
    static String twReading(double peakTw, double warmupConnections, double ok) {
        double timedTw = Math.max(0, peakTw - warmupConnections);
        String timed = Md.f0(ok) + " timed connections";
        if (warmupConnections == 0) {
            return peakTw == 0 ? "no socket entered TIME-WAIT during the run (peak 0)"
                    : Md.f0(peakTw) + " sockets were in TIME-WAIT at the peak, left by its " + timed;
        }
        return "the peak of " + Md.f0(peakTw) + " TIME-WAIT sockets comes with the client's own warm-up: the run's recorded"
                + " settings show " + Md.f0(warmupConnections) + " warm-up connections (serial, against echo-bench's in-process echo"
                + " sink, closed normally before the timed requests: this scenario ran without `--cold-client`), and their TIME-WAIT"
                + " sockets outlive the run (60 s), so the " + timed + " left at most " + Md.f0(timedTw)
                + (timedTw == 0 ? ": none beyond the warm-up's" : " beyond them");
    }

    @Override
    public void generate(Results results, Report report) {
        List<Scenario> all = new ArrayList<>();
        for (Map<String, String> row : results.csv("scenarios.csv").rows()) all.add(new Scenario(results, row));
        List<List<String>> rows = new ArrayList<>();
        SvgChart twChart = new SvgChart("TIME-WAIT sockets in the namespace", "seconds since sampling began", "TIME-WAIT sockets");
        SvgChart okChart = new SvgChart("Successful requests so far", "seconds since the run began", "requests");
        for (Scenario s : all) {
            rows.add(List.of("`" + s.name + "`", s.reuse, "`" + s.options + "`", Md.f0(s.attempted), Md.f0(s.ok), Md.f0(s.ports),
                    Md.f0(s.errors - s.ports), Md.f0(s.counters.get("accepts")), s.peakCell(), Md.f0(s.timeWaitEnd), Md.f0(s.clientTw) + " / " + Md.f0(s.serverTw),
                    Md.f0(s.counters.get("resets")), Md.f3(s.elapsed), s.exhaustion()));
            twChart.series(s.name, s.twT, s.tw);
            okChart.series(s.name, s.t, s.okSoFar);
            report.put(s.name, s.outcome());
            report.put(s.name + "_exhaustion", s.exhaustion());
            report.put(s.name + "_resumed", s.resumed());
            report.put(s.name + "_rate", Md.f0(s.ok / s.elapsed));
            report.put(s.name + "_elapsed", Md.f3(s.elapsed));
            report.put(s.name + "_holders", "client " + Md.f0(s.clientTw) + ", server " + Md.f0(s.serverTw));
            report.put(s.name + "_resets", Md.f0(s.counters.get("resets")) + " resets of "
                    + Md.f0(s.counters.get("closes")) + " closes");
            report.put(s.name + "_tw_reading", s.twReading());
            report.put(s.name + "_left_tw", s.timedTw() == 0 ? "left no TIME-WAIT socket" : "left " + Md.f0(s.timedTw()) + " TIME-WAIT sockets");
            report.put(s.name + "_prevented", s.ports == 0 ? "prevented exhaustion" : "did not prevent exhaustion");
        }
        report.put("scenarios", Md.table(List.of("scenario", "tcp_tw_reuse", "echo-bench options", "attempted", "ok",
                "ports_exhausted", "other errors", "server accepts", "peak TIME-WAIT (sampled)", "TIME-WAIT at end (echo-bench)",
                "TIME-WAIT held by client / server", "server resets", "elapsed s", "exhaustion point (echo-bench intervals)"), rows));
        report.put("port_range", all.get(0).portRange);
        report.put("accept_notes", acceptNotes(all));
        report.put("host_defaults", hostDefaults(results.json("env.json", RunEnvironment.class)));
        report.chart("time-wait-tw.svg", twChart.render());
        report.chart("time-wait-ok.svg", okChart.render());
    }

    /**
     * Server accepts against successes: echo-bench makes one probe connect before any run that
     * is not the serial client (it costs a port too); anything else is listed as unexplained.
     */
    private static String acceptNotes(List<Scenario> all) {
        List<String> probed = new ArrayList<>();
        List<String> odd = new ArrayList<>();
        for (Scenario s : all) {
            double accepts = s.counters.get("accepts");
            double expected = s.keepalive ? accepts : s.ok + (s.serial ? 0 : 1);
            if (!s.serial) probed.add("`" + s.name + "`");
            if (accepts != expected) {
                odd.add("`" + s.name + "`: " + Md.f0(accepts) + " accepts for " + Md.f0(s.ok) + " successes");
            }
        }
        String probe = "echo-bench's probe connect (one blocking connect before every run that is not the serial client: "
                + String.join(", ", probed) + ") also takes a port and shows as one extra server accept";
        if (odd.isEmpty()) return "The server accepted one connection per successful short-connection request; " + probe + ".";
        return probe + ". Not explained by that: " + String.join("; ", odd) + ".";
    }

    /** The host's own port range and reuse setting, and the connection rate that would exhaust them. */
    private static String hostDefaults(RunEnvironment env) {
        String range = String.valueOf(env.ipLocalPortRange()).trim();
        String reuse = String.valueOf(env.tcpTwReuse()).trim();
        String[] lohi = range.split("\\s+");
        long ports = lohi.length == 2 ? Long.parseLong(lohi[1]) - Long.parseLong(lohi[0]) + 1 : -1;
        String s = "`ip_local_port_range` " + range + " (" + ports + " ports) and `tcp_tw_reuse` " + reuse;
        if (reuse.equals("0")) return s + ": without reuse, " + ports + " short connections per minute to one server exhaust it";
        return s + ": with reuse, only more than about " + ports + " new connections per second to one server would exhaust it";
    }
}

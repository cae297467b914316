package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import niolab.common.results.RunEnvironment;

/**
 * exp-time-wait: short connections against a 1000-port ephemeral range in a network namespace
 * (experiments/scripts/exp-time-wait.sh): outcomes, TIME-WAIT over time, the exhaustion point.
 * In three steps, {@link #load}, {@link #analyse} and {@link #render}, as {@link LongRunExperiment} describes.
 */
public final class TimeWaitExperiment implements Experiment {
    @Override
    public String name() {
        return "time-wait";
    }

    /** The run: its scenarios in the order it ran them, and the host's own settings. */
    record Data(List<TimeWaitScenario> scenarios, RunEnvironment env) {
    }

    /**
     * Whose a scenario's sampled TIME-WAIT peak is: NONE (no socket entered it), OWN (a cold
     * client's: the timed connections'), WARMUP (it comes with the client's warm-up, whose
     * connections close normally and outlive the run, so they are counted out of it).
     */
    enum Peak { NONE, OWN, WARMUP }

    /** A scenario's peak read against its warm-up: whose it is, and at most how many sockets the timed connections left. */
    record PeakReading(Peak peak, double timedTw) {
    }

    /** A scenario's findings: its peak's reading, and the successes after its first errors (-1: no errors). */
    record Scenario(TimeWaitScenario run, PeakReading reading, double successesAfterErrors) {
    }

    /**
     * What the run found: per scenario; the scenarios echo-bench probed (one connect before the
     * run) and those whose accepts the successes and the probe do not explain; the host's port
     * count (-1 when unreadable) and reuse setting.
     */
    record Findings(List<Scenario> scenarios, List<String> probed, List<String> oddAccepts, String hostRange, long hostPorts, String hostReuse) {
    }

    /** A peak of {@code peakTw} TIME-WAIT sockets read against {@code warmupConnections} client warm-up connections. */
    static PeakReading reading(double peakTw, double warmupConnections) {
        Peak peak = warmupConnections > 0 ? Peak.WARMUP : peakTw == 0 ? Peak.NONE : Peak.OWN;
        return new PeakReading(peak, Math.max(0, peakTw - warmupConnections));
    }

    static Data load(Results results) {
        List<TimeWaitScenario> all = new ArrayList<>();
        for (Map<String, String> row : results.csv("scenarios.csv").rows()) all.add(new TimeWaitScenario(results, row));
        return new Data(all, results.json("env.json", RunEnvironment.class));
    }

    static Findings analyse(Data d) {
        List<Scenario> scenarios = new ArrayList<>();
        List<String> probed = new ArrayList<>(), odd = new ArrayList<>();
        for (TimeWaitScenario s : d.scenarios) {
            double after = -1;
            for (int i = 0; i < s.t.length; i++) {
                if (s.errorsSoFar[i] > 0) {
                    after = s.ok - s.okSoFar[i];
                    break;
                }
            }
            scenarios.add(new Scenario(s, reading(s.peakTw(), s.warmupConnections), after));
            // echo-bench makes one probe connect before any run that is not the serial client (it costs a port too)
            double accepts = s.counters.get("accepts");
            double expected = s.keepalive ? accepts : s.ok + (s.serial ? 0 : 1);
            if (!s.serial) probed.add(s.name);
            if (accepts != expected) odd.add(s.name);
        }
        String range = String.valueOf(d.env.ipLocalPortRange()).trim();
        String[] lohi = range.split("\\s+");
        long ports = lohi.length == 2 ? Long.parseLong(lohi[1]) - Long.parseLong(lohi[0]) + 1 : -1;
        return new Findings(scenarios, probed, odd, range, ports, String.valueOf(d.env.tcpTwReuse()).trim());
    }

    @Override
    public void generate(Results results, Report report) {
        render(analyse(load(results)), report);
    }

    static void render(Findings f, Report report) {
        List<List<String>> rows = new ArrayList<>();
        SvgChart twChart = new SvgChart("TIME-WAIT sockets in the namespace", "seconds since sampling began", "TIME-WAIT sockets");
        SvgChart okChart = new SvgChart("Successful requests so far", "seconds since the run began", "requests");
        List<String> odd = new ArrayList<>(), probed = new ArrayList<>();
        for (Scenario x : f.scenarios) {
            TimeWaitScenario s = x.run;
            String holders = Md.f0(s.clientTw) + " / " + Md.f0(s.serverTw);
            rows.add(List.of("`" + s.name + "`", s.reuse, "`" + s.options + "`", Md.f0(s.attempted), Md.f0(s.ok), Md.f0(s.ports),
                    Md.f0(s.errors - s.ports), Md.f0(s.counters.get("accepts")), s.peakCell(), Md.f0(s.timeWaitEnd), holders,
                    Md.f0(s.counters.get("resets")), Md.f3(s.elapsed), s.exhaustion()));
            twChart.series(s.name, s.twT, s.tw);
            okChart.series(s.name, s.t, s.okSoFar);
            report.put(s.name, s.outcome());
            report.put(s.name + "_exhaustion", s.exhaustion());
            report.put(s.name + "_resumed", x.successesAfterErrors < 0 ? "none" : x.successesAfterErrors > 0 ? "resumed" : "stopped");
            report.put(s.name + "_later", Md.f0(x.successesAfterErrors));
            report.put(s.name + "_rate", Md.f0(s.ok / s.elapsed));
            report.put(s.name + "_elapsed", Md.f3(s.elapsed));
            report.put(s.name + "_holders", "client " + Md.f0(s.clientTw) + ", server " + Md.f0(s.serverTw));
            report.put(s.name + "_resets", Md.f0(s.counters.get("resets")) + " resets of "
                    + Md.f0(s.counters.get("closes")) + " closes");
            report.put(s.name + "_tw", x.reading.peak.name().toLowerCase(Locale.ROOT));
            report.put(s.name + "_peak", Md.f0(s.peakTw()));
            report.put(s.name + "_ok", Md.f0(s.ok));
            report.put(s.name + "_warmup", Md.f0(s.warmupConnections));
            report.put(s.name + "_timed_tw", Md.f0(x.reading.timedTw));
            report.put(s.name + "_timed_none", x.reading.timedTw == 0);
            report.put(s.name + "_left_tw", x.reading.timedTw == 0 ? "left no TIME-WAIT socket" : "left " + Md.f0(x.reading.timedTw) + " TIME-WAIT sockets");
            report.put(s.name + "_prevented", s.ports == 0 ? "prevented exhaustion" : "did not prevent exhaustion");
            if (f.probed.contains(s.name)) probed.add("`" + s.name + "`");
            if (f.oddAccepts.contains(s.name)) odd.add("`" + s.name + "`: " + Md.f0(s.counters.get("accepts")) + " accepts for " + Md.f0(s.ok) + " successes");
        }
        report.put("scenarios", Md.table(List.of("scenario", "tcp_tw_reuse", "echo-bench options", "attempted", "ok",
                "ports_exhausted", "other errors", "server accepts", "peak TIME-WAIT (sampled)", "TIME-WAIT at end (echo-bench)",
                "TIME-WAIT held by client / server", "server resets", "elapsed s", "exhaustion point (echo-bench intervals)"), rows));
        report.put("port_range", f.scenarios.get(0).run.portRange);
        report.put("probed", String.join(", ", probed));
        report.put("odd_accepts", String.join("; ", odd));
        String host = "`ip_local_port_range` " + f.hostRange + " (" + f.hostPorts + " ports) and `tcp_tw_reuse` " + f.hostReuse;
        report.put("host_defaults", f.hostReuse.equals("0") ? host + ": without reuse, " + f.hostPorts + " short connections per minute to one server exhaust it"
                : host + ": with reuse, only more than about " + f.hostPorts + " new connections per second to one server would exhaust it");
        report.chart("time-wait-tw.svg", twChart.render());
        report.chart("time-wait-ok.svg", okChart.render());
    }
}

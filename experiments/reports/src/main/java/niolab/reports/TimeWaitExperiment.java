package niolab.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        List<TimeWaitScenario> all = new ArrayList<>();
        for (Map<String, String> row : results.csv("scenarios.csv").rows()) all.add(new TimeWaitScenario(results, row));
        List<List<String>> rows = new ArrayList<>();
        SvgChart twChart = new SvgChart("TIME-WAIT sockets in the namespace", "seconds since sampling began", "TIME-WAIT sockets");
        SvgChart okChart = new SvgChart("Successful requests so far", "seconds since the run began", "requests");
        for (TimeWaitScenario s : all) {
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
    private static String acceptNotes(List<TimeWaitScenario> all) {
        List<String> probed = new ArrayList<>();
        List<String> odd = new ArrayList<>();
        for (TimeWaitScenario s : all) {
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

package niolab.reports;

import java.util.List;
import java.util.Map;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Interval;
import niolab.common.results.BenchReport.Run;

/** One scenario's results. */
final class TimeWaitScenario {
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

    TimeWaitScenario(Results r, Map<String, String> row) {
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
}

package niolab.reports;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import niolab.common.results.BenchComparison;
import niolab.common.stats.Interval;
import niolab.common.stats.MedianInterval;

/** One compare run's slices: each round's rate per server, and which server went first. */
final class NoiseRounds {
    final List<String> servers = new ArrayList<>();
    final Map<Integer, Map<String, Double>> rate = new TreeMap<>();
    final Map<Integer, String> first = new TreeMap<>();
    /** When the compare wrote its JSON, at its end ("" when not recorded). */
    String date = "";
    /** Seconds of load the run spent: its slices and each server's warm-up. */
    double loadS;

    static NoiseRounds of(Results r, String file) {
        return of(r.json(file, BenchComparison.class));
    }

    static NoiseRounds of(BenchComparison json) {
        NoiseRounds rounds = new NoiseRounds();
        for (BenchComparison.Server s : json.servers()) rounds.servers.add(s.name());
        rounds.date = json.environment() == null || json.environment().time() == null ? "" : json.environment().time();
        rounds.loadS = json.config().warmupS() * json.servers().size();
        for (BenchComparison.Slice s : json.slices()) {
            rounds.loadS += s.seconds();
            if (s.rate() == null || s.refused()) continue;
            rounds.rate.computeIfAbsent(s.round(), k -> new TreeMap<>()).put(s.server(), s.rate());
            if (s.position() == 0) rounds.first.put(s.round(), s.server());
        }
        return rounds;
    }

    int count() {
        return rate.size();
    }

    /** When the run started: its recorded end less its slices and warm-ups, to the second ("" when not recorded). */
    String started() {
        if (date.isEmpty()) return "";
        return Instant.parse(date).minusMillis(Math.round(loadS * 1000)).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** Server {@code index}'s rates, one per round that served it, in round order. */
    double[] rates(int index) {
        List<Double> v = new ArrayList<>();
        for (Map<String, Double> round : rate.values()) {
            Double x = round.get(servers.get(index));
            if (x != null) v.add(x);
        }
        return toArray(v);
    }

    /** The second server over the first, per round where both served, from the first {@code limit} rounds (0: all). */
    Interval ratio(int limit) {
        return ratioOf(limit, null);
    }

    /** The same, from the rounds where {@code server} went first. */
    Interval ratioWhereFirst(String server) {
        return ratioOf(0, server);
    }

    private Interval ratioOf(int limit, String firstServer) {
        List<Double> numer = new ArrayList<>(), denom = new ArrayList<>();
        int seen = 0;
        for (Map.Entry<Integer, Map<String, Double>> e : rate.entrySet()) {
            if (limit > 0 && seen++ >= limit) break;
            if (firstServer != null && !firstServer.equals(first.get(e.getKey()))) continue;
            Double a = e.getValue().get(servers.get(0)), b = e.getValue().get(servers.get(1));
            if (a == null || b == null) continue;
            numer.add(b);
            denom.add(a);
        }
        return MedianInterval.medianOfRatios(toArray(numer), toArray(denom));
    }

    private static double[] toArray(List<Double> v) {
        double[] a = new double[v.size()];
        for (int i = 0; i < a.length; i++) a[i] = v.get(i);
        return a;
    }
}

package niolab.bench;

import niolab.common.results.BenchComparison;
import niolab.common.results.ResultsJson;

/**
 * One server's slice of one round of {@code echo-bench compare}: what it served, its rate, its
 * tail and the server's CPU per request (NaN without a pid). {@code seconds} is the slice's
 * measured length; {@code rate} is decided by the load that ran it ({@link SliceLoad}).
 * {@code refused} marks a slice in which every connect was refused: the server is gone.
 * {@code round} counts over all forks; {@code fork} (from 1) is the fresh set of server processes it ran against.
 * {@code rulers}: the nanosecond CPU of server and client and the interference around it ({@link Rulers}).
 */
record Slice(int fork, int round, int position, String server, long requests, long errors, double seconds, double rate,
        double p50Us, double p99Us, double serverCpuUsPerRequest, boolean refused, Rulers.Reading rulers) {
    Slice(int fork, int round, int position, String server, long requests, long errors, double seconds, double rate, double p50Us,
            double p99Us, double serverCpuUsPerRequest, boolean refused) {
        this(fork, round, position, server, requests, errors, seconds, rate, p50Us, p99Us, serverCpuUsPerRequest, refused, Rulers.Reading.NONE);
    }

    static Slice refused(int fork, int round, int position, String server) {
        return new Slice(fork, round, position, server, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, true);
    }

    /** A slice that served something can be paired with the other servers' slices of its round. */
    boolean served() {
        return requests > 0;
    }

    /** This slice judged against an interference limit ({@link Rulers.Reading#disturbed}). */
    Slice judged(double interferenceLimit) {
        return new Slice(fork, round, position, server, requests, errors, seconds, rate, p50Us, p99Us, serverCpuUsPerRequest, refused,
                rulers.judged(interferenceLimit));
    }

    /** The slice as compare's JSON keeps it. */
    BenchComparison.Slice json() {
        return new BenchComparison.Slice(round, position, server, requests, errors, seconds, ResultsJson.orNull(rate), ResultsJson.orNull(p50Us),
                ResultsJson.orNull(p99Us), ResultsJson.orNull(serverCpuUsPerRequest), refused, fork, rulersJson());
    }

    private BenchComparison.SliceRulers rulersJson() {
        Rulers.Reading r = rulers;
        if (r.serverNs() < 0 && r.clientNs() < 0 && Double.isNaN(r.interference())) return null;
        return new BenchComparison.SliceRulers(r.serverNs() < 0 ? null : r.serverNs(), r.clientNs() < 0 ? null : r.clientNs(),
                ResultsJson.orNull(r.serverShare()), ResultsJson.orNull(r.clientShare()), ResultsJson.orNull(r.serverCores()),
                ResultsJson.orNull(r.clientCores()), ResultsJson.orNull(r.serverPeak()), ResultsJson.orNull(r.clientPeak()),
                r.bothRead() ? r.clientBound() : null, r.cores(), ResultsJson.orNull(r.interference()), ResultsJson.orNull(r.limit()),
                Double.isNaN(r.limit()) || Double.isNaN(r.interference()) ? null : r.disturbed());
    }
}

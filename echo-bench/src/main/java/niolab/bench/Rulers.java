package niolab.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The rulers of {@code echo-bench compare}'s slices and what they allow a verdict to say: CPU
 * in nanoseconds (the scheduler's clock) for the server's process tree and for the client, each
 * one's share of its cores over the slice, and the CPU that other processes took on those cores.
 * A rate measures the server only while the client keeps up, and only while nothing else runs
 * where the two run: {@link #clientBoundShare} and {@link #disturbedShare} say how often that failed.
 *
 * <pre>
 *   double cb = Rulers.clientBoundShare(Rulers.of(slices, "lt"));   // 0.83: the rate is mostly the client's
 *   double d = Rulers.disturbedShare(slices);                          // 0.10: a tenth of the slices disturbed
 * </pre>
 */
final class Rulers {
    /**
     * A core counts as saturated at 90% busy. A thread that never waits still shows less than
     * 100%: the loopback's receive path runs in softirq, which the kernel charges to no task, and
     * the scheduler takes its share; a thread at 90% has at most a tenth of the slice left, so the
     * load cannot go faster by more than that. Below it, the thread waited for its peer.
     */
    static final double SATURATED = 0.90;

    /** Half the slices: past it the median rate, and so the rate ratio, is the client's. */
    static final double CLIENT_BOUND_MAJORITY = 0.5;

    private Rulers() {
    }

    /**
     * What was read around one slice. {@code serverNs}, {@code clientNs}: CPU of the server's
     * process tree and of the client over the slice (-1 unknown). {@code serverCores},
     * {@code clientCores}: the cores each could use (the server: those its running threads may
     * run on; the client: its load threads, at most its allowed cores); NaN unknown.
     * {@code serverPeak}, {@code clientPeak}: the busiest thread's share of the slice (NaN
     * unknown). {@code cores}: the measured cores, as a kernel CPU list. {@code interference}: the
     * CPU that everything else used on them, as a share of their capacity over the slice (NaN
     * unknown). {@code limit}: the share above which the slice is disturbed (NaN: not judged).
     */
    record Reading(double seconds, long serverNs, long clientNs, double serverCores, double clientCores, double serverPeak,
            double clientPeak, String cores, double interference, double limit) {
        static final Reading NONE = new Reading(0, -1, -1, Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, Double.NaN, Double.NaN);

        /** The server's CPU over the slice's wall time, in cores; NaN unknown. */
        double serverShare() {
            return share(serverNs);
        }

        /** The client's CPU over the slice's wall time, in cores; NaN unknown. */
        double clientShare() {
            return share(clientNs);
        }

        private double share(long ns) {
            return ns < 0 || seconds <= 0 ? Double.NaN : ns / (seconds * 1e9);
        }

        /** Whether the server had no headroom: {@link #saturated}. */
        boolean serverSaturated() {
            return saturated(serverShare(), serverCores, serverPeak);
        }

        /** Whether the client had no headroom: {@link #saturated}. */
        boolean clientSaturated() {
            return saturated(clientShare(), clientCores, clientPeak);
        }

        /** Whether the client and the server were both read. */
        boolean bothRead() {
            return !Double.isNaN(serverShare()) && !Double.isNaN(clientShare());
        }

        /** The client saturated and the server not: the slice's rate is the client's, not the server's. */
        boolean clientBound() {
            return bothRead() && clientSaturated() && !serverSaturated();
        }

        /** Whether other processes took more than the limit of the measured cores. */
        boolean disturbed() {
            return !Double.isNaN(limit) && !Double.isNaN(interference) && interference > limit;
        }

        Reading judged(double limit) {
            return new Reading(seconds, serverNs, clientNs, serverCores, clientCores, serverPeak, clientPeak, cores, interference, limit);
        }
    }

    /**
     * Saturated: CPU at or above {@link #SATURATED} of the cores the process could use, or one
     * thread at or above it of the slice (a single event loop is saturated whatever the cores).
     */
    static boolean saturated(double share, double cores, double peakThread) {
        return !Double.isNaN(share) && !Double.isNaN(cores) && cores > 0 && share >= SATURATED * cores
                || !Double.isNaN(peakThread) && peakThread >= SATURATED;
    }

    /** {@code server}'s slices in which it served, in the order they ran. */
    static List<Slice> of(List<Slice> slices, String server) {
        List<Slice> own = new ArrayList<>();
        for (Slice s : slices) {
            if (s.server().equals(server) && s.served()) own.add(s);
        }
        return own;
    }

    /**
     * The share of the slices that are client-bound ({@link Reading#clientBound}), among the
     * served ones in which both the client and the server were read; NaN when there is none.
     */
    static double clientBoundShare(List<Slice> slices) {
        int read = 0;
        int bound = 0;
        for (Slice s : slices) {
            if (!s.served() || !s.rulers().bothRead()) continue;
            read++;
            if (s.rulers().clientBound()) bound++;
        }
        return read == 0 ? Double.NaN : (double) bound / read;
    }

    /**
     * Whether {@code server}'s rate against {@code baseline}'s measures the client: either
     * server's slices client-bound in at least {@link #CLIENT_BOUND_MAJORITY} of them. Such a rate
     * ratio is the client's ratio; CPU per request still compares the servers.
     */
    static boolean rateClientBound(List<Slice> slices, String server, String baseline) {
        return clientBoundShare(of(slices, server)) >= CLIENT_BOUND_MAJORITY
                || clientBoundShare(of(slices, baseline)) >= CLIENT_BOUND_MAJORITY;
    }

    /**
     * The words a rate verdict adds when {@link #rateClientBound}, e.g. {@code client-bound (the
     * client saturated, the server not, in 83% of lt's and 90% of mp's slices): the rate ratio is
     * the client's; compare CPU per request}; null when it is not.
     */
    static String clientBoundWords(List<Slice> slices, String server, String baseline) {
        if (!rateClientBound(slices, server, baseline)) return null;
        return String.format(java.util.Locale.ROOT,
                "client-bound (the client saturated, the server not, in %s of %s's and %s of %s's slices): the rate ratio is the client's; "
                        + "compare CPU per request", percent(clientBoundShare(of(slices, server))), server,
                percent(clientBoundShare(of(slices, baseline))), baseline);
    }

    /** e.g. {@code 12% of the slices disturbed (other processes above 5% of the measured cores)}; null when none was judged. */
    static String disturbedWords(List<Slice> slices) {
        double share = disturbedShare(slices);
        if (Double.isNaN(share)) return null;
        double limit = Double.NaN;
        for (Slice s : slices) {
            if (!Double.isNaN(s.rulers().limit())) limit = s.rulers().limit();
        }
        return percent(share) + " of the slices disturbed (other processes above " + percent(limit) + " of the measured cores)";
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "-" : Math.round(share * 100) + "%";
    }

    /**
     * The share of the slices disturbed by other processes ({@link Reading#disturbed}), among
     * those whose interference was read and judged; NaN when there is none.
     */
    static double disturbedShare(List<Slice> slices) {
        int judged = 0;
        int disturbed = 0;
        for (Slice s : slices) {
            Reading r = s.rulers();
            if (Double.isNaN(r.interference()) || Double.isNaN(r.limit())) continue;
            judged++;
            if (r.disturbed()) disturbed++;
        }
        return judged == 0 ? Double.NaN : (double) disturbed / judged;
    }
}

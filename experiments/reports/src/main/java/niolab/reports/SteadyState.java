package niolab.reports;

import java.util.Arrays;
import java.util.List;
import niolab.common.results.BenchReport;
import niolab.common.results.BenchReport.Interval;

/** A long run's steady state, which exp-long-run reports and exp-short-run sets its short runs against. */
final class SteadyState {
    /** The write-up's ratio of steady-state to short-run QPS (17.6K / 8.1K), quoted. */
    static final double WRITE_UP_RATIO = 2.17;

    private SteadyState() {
    }

    /** The median QPS of the run's second half, the last (usually partial) interval left out. */
    static double qps(BenchReport longRun) {
        List<Interval> iv = longRun.runs().get(0).intervals();
        int n = iv.size() > 2 ? iv.size() - 1 : iv.size();
        double[] qps = new double[n];
        for (int i = 0; i < n; i++) qps[i] = iv.get(i).qps();
        return Stats.median(secondHalf(qps));
    }

    /** The second half of a series of intervals' figures, where the steady state is read. */
    static double[] secondHalf(double[] series) {
        return Arrays.copyOfRange(series, series.length / 2, series.length);
    }
}

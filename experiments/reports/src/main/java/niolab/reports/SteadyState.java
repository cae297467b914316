package niolab.reports;

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
        double[] secondHalf = new double[n - n / 2];
        for (int i = n / 2; i < n; i++) secondHalf[i - n / 2] = iv.get(i).qps();
        return Stats.median(secondHalf);
    }
}

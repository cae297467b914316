package niolab.common.results;

/**
 * An experiment run's {@code conditions.json}: the machine's state over the run, written by
 * {@link RunRecorder} ({@code scripts/lib.sh}'s {@code conditions_end}). Load averages are
 * {@code /proc/loadavg}'s first three fields (1, 5, 15 min); steal is the hypervisor's share of
 * all CPU time between the two {@code /proc/stat} snapshots; {@code noise} names the A/A
 * comparison file beside it, or is null.
 */
public record RunConditions(String loadavgBefore, String loadavgAfter, long stealTicks, long totalTicks,
                            double stealPercent, String noise) {
}

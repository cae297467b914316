package niolab.common.stats;

/**
 * A design sized before the run: how many forks of how many rounds a comparison needs for 90%
 * power to call a given difference beyond its threshold, from a pilot's variance components.
 *
 * <p>Rounds per fork follow Kalibera and Jones (Rigorous Benchmarking in Reasonable Time, ISMM
 * 2013): sqrt((cost of a fork / cost of a round) · (within variance / between variance)), at
 * least {@value #MIN_ROUNDS}; a fork's log-median then varies by between + (pi/2)·within/rounds.
 * Forks: the fewest, at least {@value Sequential#FIRST}, whose 95% interval reaches the power
 * ({@link Power#of}), at most {@value #MAX_FORKS}.
 */
public record Plan(int forks, int rounds, double seconds, boolean reachable) {
    public static final int MIN_ROUNDS = 3;
    public static final int MAX_ROUNDS = 30;
    public static final int MAX_FORKS = 200;

    /**
     * {@code components}: the pilot's; {@code threshold}: the verdicts' (a fraction);
     * {@code detect}: the true difference to call with 90% power (a fraction above the threshold);
     * {@code forkSeconds}: starting and warming a fork's servers; {@code roundSeconds}: one round.
     */
    public static Plan of(VarianceComponents components, double threshold, double detect, double forkSeconds, double roundSeconds) {
        if (!(detect > threshold)) throw new IllegalArgumentException("the difference to detect must exceed the threshold");
        double between = components.between();
        double within = components.within();
        int rounds;
        if (!(between > 0)) rounds = MAX_ROUNDS;
        else rounds = (int) Math.ceil(Math.sqrt(forkSeconds / roundSeconds * within / between));
        rounds = Math.max(MIN_ROUNDS, Math.min(MAX_ROUNDS, rounds));
        double perFork = between + Math.PI / 2 * within / rounds;
        int forks = Sequential.FIRST;
        boolean reachable = false;
        for (; forks <= MAX_FORKS; forks++) {
            double se = Math.sqrt(perFork / forks);
            double slower = Power.of(1 - detect, se, forks - 1, MedianInterval.LEVEL, threshold);
            double faster = Power.of(1 + detect, se, forks - 1, MedianInterval.LEVEL, threshold);
            if (Math.min(slower, faster) >= Power.TARGET) {
                reachable = true;
                break;
            }
        }
        forks = Math.min(forks, MAX_FORKS);
        return new Plan(forks, rounds, forks * (forkSeconds + rounds * roundSeconds), reachable);
    }
}

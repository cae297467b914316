package niolab.common.stats;

/**
 * Runs that go on until they decide, with their error rate kept: a comparison may look at its
 * interval after some forks and stop once every verdict is decided, but every look is another
 * chance for noise to cross a bound, so looking after every fork at 95% calls differences that
 * are not there far more often than 5% of the time (the simulation in the tests counts it).
 *
 * <p>The rule: looks at {@value #FIRST} forks and then each time
 * the forks have grown by half (3, 5, 8, 12, 18, 27, ...), and at the last fork when the time is
 * spent; look k uses a two-sided interval of level 1 - alpha/(k(k+1)). The levels' misses sum to
 * at most alpha over any number of looks (1/(k(k+1)) = 1/k - 1/(k+1) telescopes to 1), so by
 * the union bound the chance that any look's interval misses the true ratio, and with it the
 * chance of any false call, stays at most alpha = 5% (alpha spending with a Bonferroni split;
 * Jennison and Turnbull, Group Sequential Methods, 2000, ch. 7). The geometric schedule keeps the
 * looks few, so the intervals widen little: look 5 (18 forks) uses 99.83%.
 */
public final class Sequential {
    public static final double ALPHA = 1 - MedianInterval.LEVEL;
    /** The first look: fewer forks give the interval too few degrees of freedom to decide anything. */
    public static final int FIRST = 3;

    private Sequential() {}

    /** Whether a look is due after {@code forks} forks, the last look having been at {@code lastLookForks} (0 for none). */
    public static boolean lookDue(int forks, int lastLookForks) {
        if (forks < FIRST) return false;
        if (lastLookForks == 0) return true;
        return forks >= nextLook(lastLookForks);
    }

    /** The forks at which the look after one at {@code forks} is due: half as many again, at least one more. */
    public static int nextLook(int forks) {
        return Math.max(forks + 1, (int) Math.ceil(forks * 1.5));
    }

    /** The interval's level at look {@code k} (from 1). */
    public static double level(int look) {
        if (look < 1) throw new IllegalArgumentException("look " + look + " counts from 1");
        return 1 - ALPHA / ((double) look * (look + 1));
    }
}

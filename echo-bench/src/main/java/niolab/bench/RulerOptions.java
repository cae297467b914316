package niolab.bench;

import java.util.List;
import picocli.CommandLine.Option;

/**
 * compare's options for the interference guard ({@link Rulers}): the share of the measured
 * cores that other processes may take before a slice counts as disturbed, and how many times a
 * round with a disturbed slice is run again. A picocli mixin: declared once, read as values.
 */
final class RulerOptions {
    /** Repeats per round at most: a machine busy for good must not hold a run forever. */
    static final int MAX_REPEATS = 10;

    @Option(names = "--interference-limit", defaultValue = "5%", paramLabel = "X%",
            description = "A slice is disturbed when processes other than the compared server and the client used more than X%% of "
                    + "the measured cores (those the server's running threads and the client may run on) (default: ${DEFAULT-VALUE}).")
    String interferenceLimit;

    @Option(names = "--repeat-disturbed", defaultValue = "0", paramLabel = "N",
            description = "Run a round again, in a fresh order, when one of its slices was disturbed; at most N times per round "
                    + "(0 to " + MAX_REPEATS + "), the last run kept either way (default: ${DEFAULT-VALUE}).")
    int repeatDisturbed;

    /** The round whose repeats {@link #attempts} counts. */
    private int round;
    private int attempts;
    private int repeated;

    /** The first thing wrong with these options, as one line, or null. */
    String problem() {
        if (!interferenceLimit.matches("[0-9]+(\\.[0-9]+)?%") || limit() > 1) {
            return "--interference-limit must be a percentage from 0% to 100% such as 5%, not '" + interferenceLimit + "'";
        }
        if (repeatDisturbed < 0 || repeatDisturbed > MAX_REPEATS) {
            return "--repeat-disturbed must be from 0 to " + MAX_REPEATS + ", not " + repeatDisturbed;
        }
        return null;
    }

    /** --interference-limit as a fraction. */
    double limit() {
        return Double.parseDouble(interferenceLimit.substring(0, interferenceLimit.length() - 1)) / 100;
    }

    /**
     * After round {@code round}, whose slices are {@code done} from index {@code from}: judges them
     * against the limit, and when one was disturbed and the round has repeats left (and no server
     * was refused in it), takes the round's slices out of {@code done} and returns true: run it again.
     */
    boolean repeatRound(List<Slice> done, int from, int round) {
        if (round != this.round) {
            this.round = round;
            attempts = 0;
        }
        boolean disturbed = false;
        boolean refused = false;
        for (int i = from; i < done.size(); i++) {
            Slice s = done.get(i).judged(limit());
            done.set(i, s);
            disturbed |= s.rulers().disturbed();
            refused |= s.refused();
        }
        if (!disturbed || refused || attempts >= repeatDisturbed) return false;
        attempts++;
        repeated++;
        done.subList(from, done.size()).clear();
        return true;
    }

    /** How many rounds were run again, over the whole run. */
    int repeatedRounds() {
        return repeated;
    }
}

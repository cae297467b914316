package niolab.bench;

import java.util.Locale;
import sun.misc.Signal;

/**
 * SIGINT (Ctrl-C) or SIGTERM to {@code echo-bench compare}: the run ends but keeps what it measured.
 * The slice under way finishes (its server is still up), no server is started any more, the fork's
 * servers are stopped as at the end of any fork, and compare prints the verdicts of the slices
 * completed, marked partial, and writes its JSON with {@code "partial": true}, which the report
 * generator refuses. The exit status is 128 plus the signal's number, as the shell reports a
 * signal. A second signal ends compare at once (its shutdown hook still stops the servers).
 *
 * <p>A signal the JVM was started with ignored (compare run in the background of a script) stays
 * ignored: the JVM keeps it so.
 */
final class RunAbort {
    private static volatile Signal caught;

    private RunAbort() {}

    /** Takes SIGINT and SIGTERM from the JVM's default, an immediate exit. */
    static void install() {
        Signal.handle(new Signal("INT"), RunAbort::handle);
        Signal.handle(new Signal("TERM"), RunAbort::handle);
    }

    private static void handle(Signal s) {
        if (caught != null) Runtime.getRuntime().exit(128 + s.getNumber());
        caught = s;
        ForkedServer.refuseStarts();
    }

    static boolean interrupted() {
        return caught != null;
    }

    /** 130 after SIGINT, 143 after SIGTERM. */
    static int exitCode() {
        return 128 + caught.getNumber();
    }

    /** The line before the verdicts of a run a signal stopped. */
    static String note(int slices) {
        return String.format(Locale.ROOT, "# partial: compare was stopped by SIG%s; the verdicts below are of the %d slices it completed%n",
                caught.getName(), slices);
    }
}

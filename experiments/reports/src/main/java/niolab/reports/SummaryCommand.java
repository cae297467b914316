package niolab.reports;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that computes one text from the files it is given: printed whole on success, or one
 * line ({@code error: ...}) and exit 1 when a file cannot be read or holds what it cannot use, so
 * that a script never gets half a table. The summarize subcommands and profile-shares are one each.
 */
abstract class SummaryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** What the command prints; a file or a value it cannot use throws, its message naming which. */
    abstract String summary() throws IOException;

    @Override
    public final Integer call() {
        String text;
        try {
            text = summary();
        } catch (IOException | RuntimeException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return 1;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(text);
        out.flush();
        return 0;
    }
}

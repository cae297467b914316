package niolab.reports;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The table of experiments in {@code experiments/README.md}: the block between
 * {@code <!-- BEGIN GENERATED experiments -->} and {@code <!-- END GENERATED experiments -->},
 * a row per {@link Experiments#rows()} in its order, so that the table cannot leave a report
 * out. {@code make reports} writes it with the findings.
 */
final class ExperimentsTable {
    private static final Pattern BLOCK = Pattern.compile("(<!-- BEGIN GENERATED experiments[^>]*-->\\n)(.*?)(<!-- END GENERATED experiments -->)",
            Pattern.DOTALL);

    private ExperimentsTable() {
    }

    /** The README with its table of experiments regenerated. */
    static String render(String readme) {
        Matcher m = BLOCK.matcher(readme);
        if (!m.find()) throw new IllegalArgumentException("README.md has no <!-- BEGIN GENERATED experiments --> block");
        return readme.substring(0, m.end(1)) + table() + readme.substring(m.start(3));
    }

    /** The table itself: report, what it answers, the command that runs it. */
    static String table() {
        StringBuilder t = new StringBuilder("| Report | What it answers | Command |\n|---|---|---|\n");
        for (Experiments.Row r : Experiments.rows()) {
            String name = "exp-" + r.experiment().name();
            t.append("| [").append(name).append("](").append(name).append(".md) | ").append(r.answers())
                    .append(" | `make ").append(name).append('`')
                    .append(r.runNote().isEmpty() ? "" : " (" + r.runNote() + ")").append(" |\n");
        }
        return t.toString();
    }
}

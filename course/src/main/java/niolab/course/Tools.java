package niolab.course;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * The course tools' entry point, target/course-tools.jar, which make builds with javac alone from
 * this package (JDK only, release 17), so that it runs wherever the lab does and grades code that
 * does not compile:
 *
 * <pre>
 *   grade --lab N [--only ID,...]     make grade: {@link Grader}
 *   handout [--with-solutions] DEST   make handout: {@link Handout}
 *   test-summary                      the line that ends make test ({@link SurefireReports#summary})
 *   regions --lab N                   the region files a grade of lab N runs: FILE, REGION, LAB (make handin)
 *   hash --lab N                      the hash of the sources a grade of lab N covers ({@link Sources})
 *   changed --lab N FILE.sha256       the files of that grade whose content differs from FILE's
 * </pre>
 *
 * Each runs in the current folder, the lab's root; exit 0 done, 1 failed, 2 bad usage.
 */
public final class Tools {
    private static final String USAGE = "usage: course-tools grade|handout|test-summary|regions|hash|changed ARGS"
            + " (see niolab.course.Tools)";

    private Tools() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println("error: which tool?\n" + USAGE);
            return 2;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        Path root = Paths.get("");
        try {
            switch (args[0]) {
                case "grade":
                    return Grader.run(rest, out, err);
                case "handout":
                    return Handout.run(rest, out, err);
                case "test-summary":
                    out.print(SurefireReports.summary(rest.length == 2 && rest[0].equals("--root") ? Paths.get(rest[1]) : root));
                    return 0;
                case "regions":
                case "hash":
                case "changed":
                    return ofLab(args[0], rest, root, out, err);
                default:
                    err.println("error: no tool '" + args[0] + "'\n" + USAGE);
                    return 2;
            }
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    /** {@code regions}, {@code hash} and {@code changed}: what make handin asks of lab N. */
    private static int ofLab(String tool, String[] args, Path root, PrintStream out, PrintStream err) throws IOException {
        int lab;
        try {
            if (args.length != (tool.equals("changed") ? 3 : 2) || !args[0].equals("--lab")) throw new NumberFormatException();
            lab = Integer.parseInt(args[1]);
        } catch (NumberFormatException e) {
            err.println("error: " + tool + " --lab N" + (tool.equals("changed") ? " FILE.sha256" : "") + "\n" + USAGE);
            return 2;
        }
        Course course = Course.read(root);
        if (course.lab(lab) == null) {
            err.println("error: no lab " + lab + " (labs/NN-name/lab.tsv)");
            return 2;
        }
        switch (tool) {
            case "regions" -> {
                for (Course.Region r : course.regions().values()) {
                    if (course.gradedWith(lab).contains(r.lab())) out.println(r.file() + "\t" + r.id() + "\t" + r.lab());
                }
            }
            case "hash" -> out.println(Sources.hash(root, course, lab));
            default -> {
                String kept = Files.readString(root.resolve(args[2]), StandardCharsets.UTF_8);
                for (String p : Sources.changed(root, course, lab, kept)) out.println(p.substring(2));
            }
        }
        return 0;
    }
}

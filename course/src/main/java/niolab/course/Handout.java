package niolab.course;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes the student handout: a copy of the lab in which each solution region of the reference
 * sources is replaced by its stub. The reference code stays the code the lab runs and tests,
 * and reads as reference code: a region is marked with two comment lines only, and its stub
 * lives apart, in the file its lab's manifest names ({@link Course}, {@link Stubs}):
 *
 * <pre>
 *   // BEGIN SOLUTION et-accept
 *   ...the reference code, cut from the handout...
 *   // END SOLUTION
 * </pre>
 *
 * ({@code #} instead of {@code //} for shell and make files; Markdown pages are copied as they
 * are, since they may show the markers.) The copy indents a stub's lines as its marker is. The
 * copy keeps everything else,
 * tests, Makefile, scripts, the stubs and the lab sheets included, and leaves out build output and the
 * paths {@code labs/teacher-only.txt} lists (instructor notes, this tool's own test), and the
 * planted mistakes of each manifest's [bugs]. Every marker and stub is checked (a region opened
 * twice, never closed or closed twice, a region without a stub, a stub or part no region uses,
 * a region no manifest declares or in another file than its manifest says, is an error naming
 * its line or file), and the finished copy is scanned again: no marker line may be left in it.
 *
 * <pre>
 *   make handout DEST=../handout                      # course-tools.jar handout ../handout
 *   make handout DEST=DIR SOLUTIONS=1                 # markers stripped, reference code kept
 * </pre>
 *
 * Exit 0 when written, 1 for a marker or I/O error, 2 for bad usage.
 */
public final class Handout {
    static final Pattern BEGIN = Pattern.compile("^\\s*(?://|#)\\s*BEGIN SOLUTION\\s+(\\S+)\\s*$");
    /** The inline stub lines of earlier editions: an error now, naming where the text belongs. */
    static final Pattern STUB = Pattern.compile("^(\\s*)(?://|#) STUB:(?: (.*))?$");
    static final Pattern END = Pattern.compile("^\\s*(?://|#)\\s*END SOLUTION\\s*$");
    /** Globs, relative to the lab's root, of what a student must not get; one a line, # comments. */
    static final String TEACHER_ONLY = "labs/teacher-only.txt";
    /** Build output and version control, wherever they are. */
    private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "build");
    private static final String USAGE = "usage: Handout [--with-solutions] [--source DIR] DEST";

    /** One region: its name, and where its stub starts in the copy. */
    record Region(String id, Path file, int line) {
    }

    /** A marker out of place, told as {@code file:line: what}. */
    static final class MarkerException extends RuntimeException {
        MarkerException(Path file, int line, String what) {
            super(file + ":" + line + ": " + what);
        }
    }

    private Handout() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean withSolutions = false;
        Path source = Paths.get("");
        Path dest = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--with-solutions")) {
                withSolutions = true;
            } else if (args[i].equals("--source") && i + 1 < args.length) {
                source = Paths.get(args[++i]);
            } else if (args[i].startsWith("-") || dest != null) {
                err.println("error: unexpected argument '" + args[i] + "'\n" + USAGE);
                return 2;
            } else {
                dest = Paths.get(args[i]);
            }
        }
        if (dest == null) {
            err.println("error: missing DEST, the folder to write the handout to\n" + USAGE);
            return 2;
        }
        try {
            if (!Files.isRegularFile(source.resolve(TEACHER_ONLY))) {
                err.println("error: " + source.toAbsolutePath().normalize() + " is not the lab (no " + TEACHER_ONLY + ")");
                return 2;
            }
            if (Files.exists(dest) && !isEmptyDirectory(dest)) {
                err.println("error: " + dest + " exists and is not an empty folder");
                return 2;
            }
            List<Region> regions = write(source, dest, withSolutions);
            out.println((withSolutions ? "reference tree" : "handout") + " written to " + dest + ": " + regions.size()
                    + " solution regions " + (withSolutions ? "kept" : "replaced by their stubs") + ", see " + dest.resolve("HANDOUT.md"));
            return 0;
        } catch (MarkerException | IOException | UncheckedIOException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    /** Copies {@code source} to {@code dest}, cutting (or only unmarking) the regions; returns them. */
    static List<Region> write(Path source, Path dest, boolean withSolutions) throws IOException {
        List<PathMatcher> teacherOnly = teacherOnly(source);
        Path destAbs = dest.toAbsolutePath().normalize();
        List<Region> regions = new ArrayList<>();
        Course course = Course.read(source);
        Stubs stubs = Stubs.read(source, course.regions().values());
        List<Path> files;
        try (Stream<Path> all = Files.walk(source)) {
            files = all.filter(p -> Files.isRegularFile(p) && !skipped(source, p, destAbs)).sorted().toList();
        }
        for (Path from : files) {
            Path rel = source.relativize(from);
            if (matches(teacherOnly, rel)) continue;
            Path to = dest.resolve(rel.toString());
            Files.createDirectories(to.toAbsolutePath().getParent());
            String text = isProse(rel) ? null : textOf(from);
            if (!withSolutions && rel.getFileName().toString().equals(Course.MANIFEST)) {
                Files.writeString(to, withoutBugs(text));
                continue;
            }
            if (text == null || !hasMarker(text)) {
                Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
                continue;
            }
            Files.writeString(to, String.join("\n", cut(text.split("\n", -1), withSolutions, rel, regions, stubs)));
            to.toFile().setExecutable(Files.isExecutable(from));
        }
        List<String> unused = stubs.unused();
        if (!unused.isEmpty()) throw new IOException("stubs no region takes: " + String.join(", ", unused));
        declared(source, course, regions);
        Files.writeString(dest.resolve("HANDOUT.md"), manifest(regions, withSolutions, course));
        List<String> left = markersLeft(dest);
        if (!left.isEmpty()) throw new IOException("marker lines left in the copy: " + String.join(", ", left));
        return regions;
    }

    /**
     * The lines of one file with each region replaced by its stub ({@code withSolutions}: by its
     * reference lines), every marker line gone; adds the regions to {@code regions}.
     */
    static List<String> cut(String[] lines, boolean withSolutions, Path file, List<Region> regions, Stubs stubs) {
        List<String> out = new ArrayList<>();
        List<String> stub = new ArrayList<>();
        List<String> reference = new ArrayList<>();
        String open = null;
        String indent = "";
        int openedAt = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            Matcher begin = BEGIN.matcher(line), stubLine = STUB.matcher(line);
            if (begin.matches()) {
                if (open != null) throw new MarkerException(file, i + 1, "region " + begin.group(1) + " opens inside region " + open);
                open = begin.group(1);
                openedAt = i + 1;
                indent = line.substring(0, line.length() - line.stripLeading().length());
                stub.clear();
                reference.clear();
                for (String s : stubs.next(open, file, i + 1)) stub.add(s.isBlank() ? "" : indent + s);
            } else if (END.matcher(line).matches()) {
                if (open == null) throw new MarkerException(file, i + 1, "END SOLUTION without a region open");
                regions.add(new Region(open, file, out.size() + 1));
                out.addAll(withSolutions ? reference : stub);
                open = null;
            } else if (stubLine.matches()) {
                throw new MarkerException(file, i + 1, "a STUB: line: the stub's text belongs in " + Stubs.DIR + "/" + (open == null ? "<region>" : open) + ".java.txt");
            } else if (open != null) {
                reference.add(line);
            } else {
                out.add(line);
            }
        }
        if (open != null) throw new MarkerException(file, openedAt, "region " + open + " is never closed");
        return out;
    }

    /**
     * Every region marked in the sources is one a lab's manifest declares, in the file it names,
     * and every region declared is marked; every stub file is a declared region's.
     */
    private static void declared(Path source, Course course, List<Region> marked) throws IOException {
        Map<String, Course.Region> declared = course.regions();
        Set<String> seen = new java.util.HashSet<>();
        for (Region r : marked) {
            Course.Region d = declared.get(r.id());
            if (d == null) throw new MarkerException(r.file(), r.line(), "region " + r.id() + " is in no lab's manifest (labs/NN-name/lab.tsv, [regions])");
            if (!d.file().equals(r.file().toString().replace('\\', '/'))) {
                throw new MarkerException(r.file(), r.line(), "region " + r.id() + " belongs in " + d.file() + ", as lab " + d.lab() + "'s manifest says");
            }
            seen.add(r.id());
        }
        for (Course.Region d : declared.values()) {
            if (!seen.contains(d.id())) throw new IOException("lab " + d.lab() + "'s manifest declares region " + d.id() + ", which no source marks");
        }
        Path dir = source.resolve(Stubs.DIR);
        if (!Files.isDirectory(dir)) return;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                String rel = source.relativize(f).toString().replace('\\', '/');
                if (declared.values().stream().noneMatch(d -> d.stub().equals(rel))) throw new IOException(rel + ": a stub no lab's manifest names");
            }
        }
    }

    /** A manifest as the handout has it: the planted mistakes of its [bugs] section are the teacher's. */
    static String withoutBugs(String manifest) {
        StringBuilder sb = new StringBuilder();
        boolean bugs = false;
        for (String line : manifest.split("\n", -1)) {
            if (line.startsWith("[")) bugs = line.strip().equals("[" + Course.BUGS + "]");
            else if (bugs && !line.isBlank() && !line.startsWith("#")) continue;
            sb.append(line).append('\n');
        }
        return sb.substring(0, sb.length() - 1);
    }

    /** Where the copy still holds a marker line ({@code file:line}); empty for a good handout. */
    static List<String> markersLeft(Path dir) throws IOException {
        List<String> left = new ArrayList<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                String text = isProse(dir.relativize(p)) ? null : textOf(p);
                if (text == null) continue;
                String[] lines = text.split("\n", -1);
                for (int i = 0; i < lines.length; i++) {
                    if (isMarker(lines[i])) left.add(dir.relativize(p) + ":" + (i + 1));
                }
            }
        }
        return left;
    }

    private static boolean hasMarker(String text) {
        for (String line : text.split("\n", -1)) {
            if (isMarker(line)) return true;
        }
        return false;
    }

    private static boolean isMarker(String line) {
        return BEGIN.matcher(line).matches() || END.matcher(line).matches() || STUB.matcher(line).matches();
    }

    /** Markdown is copied as it is: a page may show the markers (ARCHITECTURE.md does). */
    private static boolean isProse(Path rel) {
        return rel.getFileName().toString().endsWith(".md");
    }

    /** The file as UTF-8 text, or null for a binary file (copied as it is). */
    private static String textOf(Path p) throws IOException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(p))).toString();
        } catch (CharacterCodingException binary) {
            return null;
        }
    }

    private static boolean skipped(Path root, Path p, Path destAbs) {
        if (p.toAbsolutePath().normalize().startsWith(destAbs)) return true; // a DEST inside the lab
        Path rel = root.relativize(p);
        for (Path part : rel) {
            String name = part.toString();
            if (SKIPPED_DIRS.contains(name) && !part.equals(rel.getFileName())) return true;
        }
        String file = rel.getFileName().toString();
        return file.endsWith(".class") || file.equals(".git");
    }

    private static List<PathMatcher> teacherOnly(Path root) throws IOException {
        List<PathMatcher> globs = new ArrayList<>();
        for (String line : Files.readAllLines(root.resolve(TEACHER_ONLY))) {
            String glob = line.strip();
            if (!glob.isEmpty() && !glob.startsWith("#")) globs.add(FileSystems.getDefault().getPathMatcher("glob:" + glob));
        }
        return globs;
    }

    private static boolean matches(List<PathMatcher> globs, Path rel) {
        for (PathMatcher m : globs) {
            if (m.matches(rel)) return true;
        }
        return false;
    }

    private static boolean isEmptyDirectory(Path p) throws IOException {
        if (!Files.isDirectory(p)) return false;
        try (Stream<Path> entries = Files.list(p)) {
            return entries.findAny().isEmpty();
        }
    }

    /** HANDOUT.md: what this tree is, and where each region's stub now stands. */
    private static String manifest(List<Region> regions, boolean withSolutions, Course course) {
        StringBuilder sb = new StringBuilder();
        if (withSolutions) {
            sb.append("# NIO Lab: reference tree\n\nWritten by `Handout --with-solutions`: the student handout's files with the "
                    + "reference code left in each solution region. `make grade LAB=N` scores full marks here.\n");
        } else {
            sb.append("# NIO Lab: student handout\n\nWritten by `make handout`. Each region below was cut from the lab's "
                    + "reference sources and replaced by a stub that compiles; its `TODO lab N` comment says what to write. "
                    + "The course is in [labs/README.md](labs/README.md); `make grade LAB=N` runs lab N's checkpoints.\n");
        }
        sb.append("\n| lab | region | where |\n|---|---|---|\n");
        List<Region> byLab = new ArrayList<>(regions);
        byLab.sort(java.util.Comparator.comparing((Region r) -> course.regions().get(r.id()).lab()));
        for (Region r : byLab) {
            sb.append("| ").append(course.regions().get(r.id()).lab()).append(" | ").append(r.id()).append(" | `").append(r.file().toString().replace('\\', '/')).append(':').append(r.line()).append("` |\n");
        }
        return sb.toString();
    }
}

package niolab.course;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a grade was given for, and whether it still is the code: the one implementation of the
 * graded-source hash, which {@code make grade} writes beside its table and {@code make handin}
 * computes again.
 *
 * <p>The sources are every file under a {@code src/} folder and every {@code pom.xml}, leaving
 * out build output, runs/ and hidden files (an editor's swap file). A grade of lab N covers all of
 * them but the files holding only regions of labs the grade does not run (lab N's own and those
 * its checkpoints need, {@link Course#gradedWith}): what its checkpoints compile and exercise, so
 * that writing lab 7 leaves lab 2's grade current. The hash is SHA-256 of the lines
 * {@code sha256sum} prints for those files ({@code HASH  ./PATH}), in byte order of their paths;
 * the lines of every source are kept too ({@code runs/labN/grade.sha256}, as
 * {@code sha256sum -c} reads them), so that the hand-in names the files whose content changed.
 */
final class Sources {
    private Sources() {
    }

    /** Every source under {@code root}, as {@code ./PATH}, in byte order. */
    static List<String> all(Path root) throws IOException {
        Path top = root.toAbsolutePath().normalize();
        List<String> paths = new ArrayList<>();
        Files.walkFileTree(top, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean pruned = !dir.equals(top) && (name.equals("target") || name.equals("runs") || name.startsWith("."));
                return pruned ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String rel = top.relativize(file).toString().replace('\\', '/');
                String name = file.getFileName().toString();
                boolean source = ("/" + rel).contains("/src/") || name.equals("pom.xml");
                if (attrs.isRegularFile() && source && !name.startsWith(".")) paths.add("./" + rel);
                return FileVisitResult.CONTINUE;
            }
        });
        paths.sort(null);
        return paths;
    }

    /** The sources a grade of {@code lab} covers: all but the files whose regions are all of labs it does not run. */
    static List<String> graded(Path root, Course course, int lab) throws IOException {
        Set<Integer> runs = course.gradedWith(lab);
        Map<String, Boolean> regionFiles = new LinkedHashMap<>(); // file -> holds a region of a lab the grade runs
        for (Course.Region r : course.regions().values()) regionFiles.merge("./" + r.file(), runs.contains(r.lab()), Boolean::logicalOr);
        List<String> graded = new ArrayList<>();
        for (String p : all(root)) {
            if (regionFiles.getOrDefault(p, true)) graded.add(p);
        }
        return graded;
    }

    /** {@code sha256sum}'s line for each of {@code paths}: {@code HASH  ./PATH}. */
    static String lines(Path root, List<String> paths) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String p : paths) sb.append(HexFormat.of().formatHex(sha256(Files.readAllBytes(root.resolve(p))))).append("  ").append(p).append('\n');
        return sb.toString();
    }

    /** The graded-source hash of lab {@code lab}'s grade: SHA-256 of its files' lines. */
    static String hash(Path root, Course course, int lab) throws IOException {
        return HexFormat.of().formatHex(sha256(lines(root, graded(root, course, lab)).getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The files of lab {@code lab}'s grade whose content differs from {@code kept} (lines as
     * {@link #lines} writes them, for the tree as it was graded): edited, removed or new, as
     * {@code ./PATH}, in byte order.
     */
    static List<String> changed(Path root, Course course, int lab, String kept) throws IOException {
        Map<String, String> before = new LinkedHashMap<>();
        for (String line : kept.split("\n")) {
            int gap = line.indexOf("  ");
            if (gap > 0) before.put(line.substring(gap + 2), line.substring(0, gap));
        }
        Set<String> graded = new TreeSet<>(graded(root, course, lab));
        Set<String> changed = new TreeSet<>();
        for (String p : graded) {
            String was = before.get(p);
            if (was == null || !was.equals(HexFormat.of().formatHex(sha256(Files.readAllBytes(root.resolve(p)))))) changed.add(p);
        }
        Set<Integer> runs = course.gradedWith(lab);
        for (String p : before.keySet()) {
            if (graded.contains(p) || Files.exists(root.resolve(p))) continue;
            boolean otherLabs = course.regions().values().stream().anyMatch(r -> p.equals("./" + r.file()) && !runs.contains(r.lab()));
            if (!otherLabs) changed.add(p); // removed since the grade
        }
        return new ArrayList<>(changed);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }
}

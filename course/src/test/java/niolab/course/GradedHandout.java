package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import niolab.course.Handout.Region;

/**
 * A handout of the lab's own tree, built once for the grading test classes of the suite and
 * copied for each, so that they grade side by side in their own test JVMs: the first class to
 * come builds the handout's modules under a lock (course/target/graded-handout), the others wait
 * for it and copy its build output, a few seconds; each then rewrites the region files it grades, and its
 * {@code make grade} recompiles only those ({@link #MVN}).
 */
final class GradedHandout {
    /** The lab's root, from the course module's folder (course/). */
    static final Path LAB = Paths.get("..").toAbsolutePath().normalize();

    /**
     * Maven as {@code make grade} runs it, online: the suite's own build runs beside these tests
     * and may not yet have fetched lab-servers' test dependencies on a new machine (offline, the
     * grading failed there). It compiles only the sources newer than their classes: between two
     * gradings only the region files change, and the default would compile lab-servers' main and
     * test trees again; and with a test JVM per core, not two: a grading run has a few classes
     * per module, and each JVM more is a start and a warm-up paid for (this test runs beside the
     * rest of the suite). Two modules at a time: echo-bench does not depend on lab-servers, so
     * its build and its checkpoints run while lab-servers' wait out the stubs' stalls.
     */
    static final String MVN = "MVN=mvn -q -B -Dstyle.color=never -Dmaven.compiler.useIncrementalCompilation=false -Dtest.forks=1C -T 2";

    /** A checkpoint of each graded module (lab-servers, echo-bench): grading them builds every module a checkpoint needs. */
    private static final String BUILDS_EVERY_MODULE = "bio-silent,rate-interleave";

    /** Where the shared build lives, and the lock that the test JVMs take to make it or copy it. */
    private static final Path BASE = LAB.resolve("course/target/graded-handout");

    /** A handout in {@code dir}/handout with the regions as the students get them, its modules built; and its regions. */
    record Copy(Path dest, List<Region> regions) {
    }

    private GradedHandout() {
    }

    /**
     * Writes a handout into {@code dir}/handout and puts the shared build's output in it: every
     * module's {@code target} as the first grading left it, timestamps kept, so that Maven finds
     * the unchanged sources up to date and compiles only the region files written after it.
     */
    static Copy copy(Path dir) throws Exception {
        Path dest = dir.resolve("handout");
        List<Region> regions = Handout.write(LAB, dest, false);
        Files.createDirectories(BASE);
        // one test JVM at a time builds or copies: the others wait here, not on a half-made build
        try (FileChannel lock = FileChannel.open(BASE.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = lock.lock()) {
            Path built = built(BASE.resolve(treeKey()));
            Result cp = sh(dir, "sh", "-c", "cd '" + built + "' && find . -type d -name target -prune -print | while read -r t; do "
                    + "mkdir -p \"$0/$t\" && cp -a \"$t/.\" \"$0/$t/\" || exit 1; done", dest.toString());
            assertThat(cp.code()).as("the shared build copied: %s", cp.output()).isZero();
        }
        return new Copy(dest, regions);
    }

    /**
     * The shared build of the lab's tree as it is, made by the first caller: {@code key} names the
     * tree (its files' paths, sizes and times), so an edit between two runs makes a new one and
     * the older ones go.
     */
    private static Path built(Path key) throws Exception {
        Path dest = key.resolve("handout");
        if (Files.exists(key.resolve("built"))) return dest;
        Result clear = sh(BASE, "sh", "-c", "find . -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +");
        assertThat(clear.code()).as(clear.output()).isZero();
        List<Region> regions = Handout.write(LAB, dest, false);
        seedPicocli(dest);
        for (Region r : regions) write(dest, r.file(), true, Map.of());
        Result first = sh(dest, "make", "grade", "LAB=all", "ONLY=" + BUILDS_EVERY_MODULE, MVN);
        assertThat(first.code()).as("the reference handout builds and passes %s:%n%s%n%s", BUILDS_EVERY_MODULE, first.output(), log(dest)).isZero();
        Files.writeString(key.resolve("built"), "");
        return dest;
    }

    /** A name for the lab's tree as the handout copies it: a hash of every file's path, size and time, build output and Git left out. */
    private static String treeKey() throws IOException {
        MessageDigest sha = sha256();
        try (Stream<Path> files = Files.walk(LAB)) {
            for (Path p : files.filter(f -> Files.isRegularFile(f) && !isBuildOutput(LAB.relativize(f))).sorted().toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                sha.update((LAB.relativize(p) + " " + a.size() + " " + a.lastModifiedTime().toMillis() + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return HexFormat.of().formatHex(sha.digest(), 0, 8);
    }

    private static boolean isBuildOutput(Path rel) {
        for (Path part : rel) if (part.toString().equals("target") || part.toString().equals(".git")) return true;
        return false;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Puts the lab's own build of picocli-java17 into the handout, when the suite has built it
     * (course depends on it through test-kit, so Maven built it before these tests): a published
     * library compiled unchanged, the same in the handout as here, whose unpacking and compiling
     * were the largest part of the first grading's build. Timestamps are kept, so Maven finds it
     * up to date; target/jdk-home says which JDK built it, as make writes it, or the first
     * {@code make grade} would clean every module for a JDK it had not seen.
     */
    private static void seedPicocli(Path dest) throws IOException {
        Path built = LAB.resolve("picocli-java17/target");
        if (!Files.isDirectory(built.resolve("classes/picocli"))) return;
        try (Stream<Path> files = Files.walk(built)) {
            for (Path p : files.toList()) {
                Path to = dest.resolve("picocli-java17/target").resolve(built.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(to);
                else Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        Files.createDirectories(dest.resolve("target"));
        Files.writeString(dest.resolve("target/jdk-home"), System.getProperty("java.home") + "\n");
    }

    /** The handout's {@code make grade} log (Maven's and the servers' output). */
    static String log(Path dest) throws IOException {
        Path log = dest.resolve(MavenRun.LOG);
        return Files.isRegularFile(log) ? Files.readString(log) : "(no " + MavenRun.LOG + ")";
    }

    /**
     * Writes one region file into the handout: its stubs, or its reference code with each of
     * {@code bugs}' lines (reference line to broken line) replaced.
     */
    static void write(Path dest, Path file, boolean reference, Map<String, String> bugs) throws IOException {
        Stubs stubs = Stubs.read(LAB.resolve(Stubs.DIR));
        String text = String.join("\n", Handout.cut(Files.readString(LAB.resolve(file)).split("\n", -1), reference, file, new ArrayList<>(), stubs));
        for (Map.Entry<String, String> bug : bugs.entrySet()) {
            assertThat(text).as("%s still holds the line a bug replaces", file).contains(bug.getKey());
            text = text.replace(bug.getKey(), bug.getValue());
        }
        Files.writeString(dest.resolve(file), text);
    }

    record Result(int code, String output) {
    }

    /** Runs a command in {@code dir} on this test's JDK, for at most ten minutes (a loaded machine); its exit code and output. */
    static Result sh(Path dir, String... cmd) throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir.getParent(), "cmd", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly); // Maven, its forked test JVM
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return new Result(-1, "timed out after 10 minutes: " + String.join(" ", cmd) + "\n" + Files.readString(log));
        }
        return new Result(p.exitValue(), Files.readString(log));
    }
}

package niolab.server.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.testkit.Capability;

/**
 * The C reference server (reference/c-server.c) for the contract suites: built with make and
 * the system's C compiler the first time a test needs it (make rebuilds only what changed);
 * without a compiler the suite is skipped, saying so.
 */
public final class CReference {
    /** As users start it ({@code lab-server c}), for the contract suites; not a JVM: the binary itself, built first if needed. */
    public static final ServerUnderTest UNDER_TEST =
            ServerUnderTest.of("c").launcher(options -> start(options.toArray(new String[0])));

    private CReference() {
    }

    /** Starts {@code c-server args... --port 0}, built first if needed; skips the test when it cannot be built. */
    public static ServerProcess start(String... args) throws IOException, InterruptedException {
        Path binary = build();
        List<String> cmd = new java.util.ArrayList<>(List.of(binary.toString()));
        cmd.addAll(List.of(args));
        return ServerProcess.startCommand(cmd);
    }

    private static synchronized Path build() throws IOException, InterruptedException {
        Capability.GCC.assume();
        Path reference = repositoryRoot().resolve("reference");
        Path build = Files.createDirectories(reference.resolve("build"));
        // Test classes run in parallel JVMs: one make at a time, the others then find it built.
        try (FileChannel lock = FileChannel.open(build.resolve(".make-lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock held = lock.lock()) {
            Process make = new ProcessBuilder("make", "-s", "-C", reference.toString()).redirectErrorStream(true).start();
            String output = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Capability.GCC.assume(make.waitFor(120, TimeUnit.SECONDS) && make.exitValue() == 0,
                    "the C reference server did not build: " + output.strip());
        }
        return build.resolve("c-server");
    }

    /** Tests run in a module's directory; the reference directory sits beside the modules. */
    private static Path repositoryRoot() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("reference").resolve("Makefile"))) return p;
        }
        throw new IllegalStateException("no reference/Makefile above " + Paths.get("").toAbsolutePath());
    }
}

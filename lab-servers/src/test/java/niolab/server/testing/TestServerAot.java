package niolab.server.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * On JDK 25 and newer, the server JVMs a test module starts share one AOT cache (JEP 483, 514),
 * as {@code make aot} gives users: each of the suite's few hundred servers starts on classes
 * already loaded and linked, so each start spends less CPU (docs/suite-times.tsv keeps the suite
 * runs that measured it, with the cache and without). A cache holds classes from jars only, so the module's class folders are packed into
 * jars under {@code target/test-aot/} first; one training
 * run per module (its main, {@code niolab.server.aotTraining}'s arguments, a few connections) then
 * writes the cache, under a file lock that the module's test forks share, and again whenever an
 * entry of the class path is newer than it. Where any step fails, or on an older JDK, or with
 * {@code -Dniolab.server.aot=false} (a grading run: a handful of servers after each edit) or other
 * {@code niolab.server.testJvmOptions}, servers start as before, from the class path as it is.
 */
final class TestServerAot {
    private static volatile Setup setup;

    /** The class path a server starts from, and the JVM options that give it the cache (none without one). */
    record Setup(String classPath, List<String> jvmOptions, String why) {
    }

    private TestServerAot() {
    }

    static Setup setup(String main, List<String> testJvmOptions, boolean defaultOptions) {
        Setup s = setup;
        if (s == null) {
            synchronized (TestServerAot.class) {
                if (setup == null) setup = build(main, testJvmOptions, defaultOptions);
                s = setup;
            }
        }
        return s;
    }

    private static Setup build(String main, List<String> testJvmOptions, boolean defaultOptions) {
        String classPath = System.getProperty("java.class.path");
        if (Runtime.version().feature() < 25) return new Setup(classPath, List.of(), "JDK " + Runtime.version().feature() + " has no one-step AOT cache");
        if (!Boolean.parseBoolean(System.getProperty("niolab.server.aot", "true"))) return new Setup(classPath, List.of(), "-Dniolab.server.aot=false");
        if (!defaultOptions) return new Setup(classPath, List.of(), "servers start with other JVM options");
        List<Path> folders = new ArrayList<>();
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            if (Files.isDirectory(Paths.get(entry))) folders.add(Paths.get(entry));
        }
        if (folders.isEmpty()) return new Setup(classPath, List.of(), "no class folder to pack");
        Path home = folders.get(0).toAbsolutePath().getParent().resolve("test-aot");
        try {
            Files.createDirectories(home);
            try (FileChannel lockFile = FileChannel.open(home.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = lockFile.lock()) {
                List<String> entries = new ArrayList<>();
                for (String entry : classPath.split(java.io.File.pathSeparator)) {
                    Path p = Paths.get(entry);
                    entries.add(Files.isDirectory(p) ? packed(p, home.resolve(folders.indexOf(p) + "-" + p.getFileName() + ".jar")).toString() : entry);
                }
                String jarPath = String.join(java.io.File.pathSeparator, entries);
                Path cache = home.resolve(main.substring(main.lastIndexOf('.') + 1) + ".aot");
                if (!Files.isRegularFile(cache) || newestEntry(entries).compareTo(Files.getLastModifiedTime(cache)) > 0) {
                    Files.deleteIfExists(cache);
                    train(main, testJvmOptions, jarPath, cache);
                }
                if (!Files.isRegularFile(cache)) return new Setup(classPath, List.of(), "the training run wrote no cache");
                // A cache that does not match would be said on stdout, which tests read: it is only ever a slower start.
                return new Setup(jarPath, List.of("-XX:AOTCache=" + cache, "-Xlog:aot*=off,cds*=off"), null);
            }
        } catch (IOException | RuntimeException e) {
            return new Setup(classPath, List.of(), "could not build the cache: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Setup(classPath, List.of(), "interrupted");
        }
    }

    /**
     * {@code folder} packed into {@code jar}, again only when something in it is newer than the
     * jar (a folder's time covers a class file deleted from it).
     */
    private static Path packed(Path folder, Path jar) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(folder)) {
            all = walk.sorted().toList();
        }
        if (Files.isRegularFile(jar)) {
            FileTime built = Files.getLastModifiedTime(jar);
            boolean fresh = true;
            for (Path f : all) fresh &= Files.getLastModifiedTime(f).compareTo(built) <= 0;
            if (fresh) return jar;
        }
        List<Path> files = all.stream().filter(Files::isRegularFile).toList();
        Path tmp = jar.resolveSibling(jar.getFileName() + ".tmp");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(tmp))) {
            for (Path f : files) {
                out.putNextEntry(new JarEntry(folder.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        return Files.move(tmp, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static FileTime newestEntry(List<String> entries) throws IOException {
        FileTime newest = FileTime.fromMillis(0);
        for (String e : entries) {
            Path p = Paths.get(e);
            if (Files.exists(p) && Files.getLastModifiedTime(p).compareTo(newest) > 0) newest = Files.getLastModifiedTime(p);
        }
        return newest;
    }

    /** One server on port 0 with the cache recorded at its exit: started, 20 short connections, SIGTERM. */
    private static void train(String main, List<String> testJvmOptions, String classPath, Path cache)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(ServerProcess.javaBinary().toString(), ServerProcess.NATIVE_ACCESS));
        cmd.addAll(testJvmOptions);
        cmd.addAll(List.of("-XX:AOTCacheOutput=" + cache, "-cp", classPath, main));
        cmd.addAll(List.of(System.getProperty("niolab.server.aotTraining", "lt").split(" +")));
        cmd.addAll(List.of("--port", "0"));
        ServerProcess p = new ServerProcess(new ProcessBuilder(cmd).redirectErrorStream(true).start());
        try {
            // without a ready line the cache still records what the start loaded
            byte[] request = "GET /ping HTTP/1.1\r\nHost: aot\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 20 && p.readyWithin(60); i++) exchange(p.address(), request);
        } finally {
            p.terminate(120); // the cache is written on the way out
        }
    }

    private static void exchange(InetSocketAddress server, byte[] request) {
        try (Socket s = new Socket()) {
            s.connect(server, 2000);
            s.setSoTimeout(2000);
            s.getOutputStream().write(request);
            s.getInputStream().read(new byte[256]);
        } catch (IOException ignored) {
            // the training goes on with the next connection
        }
    }
}

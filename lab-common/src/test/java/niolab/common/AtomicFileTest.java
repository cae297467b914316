package niolab.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A results file is the old one or the new one, never half of one, even when its writer is SIGKILLed mid-write. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AtomicFileTest {
    /** Lines per generation: about 1.3 MB, so that a kill often comes in the middle of a write. */
    private static final int LINES = 60_000;

    @Test
    void aCommitReplacesTheFileAndAnAbandonedWriteLeavesTheOldOne(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("results.csv");
        AtomicFile.write(file, "a,b\n1,2\n");
        try (AtomicFile f = AtomicFile.create(file)) {
            f.out().write("a,b\n3,".getBytes(StandardCharsets.UTF_8));
            assertThat(Files.readString(file)).as("the old file until the commit").isEqualTo("a,b\n1,2\n");
        }
        assertThat(Files.readString(file)).as("no commit: the old file").isEqualTo("a,b\n1,2\n");
        assertThat(dir.resolve("results.csv" + AtomicFile.PARTIAL)).doesNotExist();
        try (AtomicFile f = AtomicFile.create(file)) {
            f.out().write("a,b\n3,4\n".getBytes(StandardCharsets.UTF_8));
            f.out().close(); // a wrapping stream's close: the file stays open for the commit
            f.commit();
        }
        assertThat(Files.readString(file)).isEqualTo("a,b\n3,4\n");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void aWriterKilledMidWriteLeavesACompleteFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("results.txt");
        String java = ProcessHandle.current().info().command().orElse("java");
        for (int attempt = 0; attempt < 3; attempt++) {
            Process writer = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                    Writer.class.getName(), file.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                Path partial = dir.resolve("results.txt" + AtomicFile.PARTIAL);
                // killed while a generation is being written: its .partial is there and growing
                for (int i = 0; i < 600 && !(Files.exists(file) && Files.exists(partial) && Files.size(partial) > 4096); i++) Thread.sleep(10);
                writer.destroyForcibly();
                assertThat(writer.waitFor(10, TimeUnit.SECONDS)).isTrue();
            } finally {
                writer.destroyForcibly();
            }
            assertThat(file).exists();
            List<String> lines = Files.readAllLines(file);
            assertThat(lines).hasSize(LINES + 1);
            String generation = lines.get(LINES);
            assertThat(generation).startsWith("end of generation ");
            assertThat(lines.get(0)).isEqualTo(Writer.line(generation.substring("end of generation ".length()), 0));
        }
    }

    /** Writes FILE over and over, each generation whole through AtomicFile, until killed. */
    static final class Writer {
        static String line(String generation, int i) {
            return "generation " + generation + " line " + i + " of " + LINES;
        }

        public static void main(String[] args) throws IOException {
            Path file = Path.of(args[0]);
            for (long g = 0; ; g++) {
                List<String> lines = new ArrayList<>(LINES + 1);
                for (int i = 0; i < LINES; i++) lines.add(line(Long.toString(g), i));
                lines.add("end of generation " + g);
                try (AtomicFile f = AtomicFile.create(file)) {
                    // line by line: a kill finds the .partial half written
                    for (String l : lines) f.out().write((l + "\n").getBytes(StandardCharsets.UTF_8));
                    f.commit();
                }
            }
        }
    }
}

package niolab.uring;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import niolab.testkit.Capability;

/**
 * The Java layouts against {@code linux/io_uring.h}: against values recorded from the header
 * (always), and against this machine's header compiled by gcc (when both are installed).
 * Lines read {@code struct size} or {@code struct.field offset}.
 */
class IoUringStructsTest {
    private static final Map<String, StructLayout> STRUCTS = Map.ofEntries(
            Map.entry("io_sqring_offsets", IoUringStructs.IO_SQRING_OFFSETS),
            Map.entry("io_cqring_offsets", IoUringStructs.IO_CQRING_OFFSETS),
            Map.entry("io_uring_params", IoUringStructs.IO_URING_PARAMS),
            Map.entry("io_uring_sqe", IoUringStructs.IO_URING_SQE),
            Map.entry("io_uring_cqe", IoUringStructs.IO_URING_CQE),
            Map.entry("io_uring_probe_op", IoUringStructs.IO_URING_PROBE_OP),
            Map.entry("io_uring_probe", IoUringStructs.IO_URING_PROBE),
            Map.entry("io_uring_buf", IoUringStructs.IO_URING_BUF),
            Map.entry("io_uring_buf_ring", IoUringStructs.IO_URING_BUF_RING),
            Map.entry("io_uring_buf_reg", IoUringStructs.IO_URING_BUF_REG),
            Map.entry("io_uring_getevents_arg", IoUringStructs.IO_URING_GETEVENTS_ARG),
            Map.entry("__kernel_timespec", IoUringStructs.KERNEL_TIMESPEC));
    private static final Path HEADER = Path.of("/usr/include/linux/io_uring.h");

    @Test
    void layoutsMatchTheValuesRecordedFromTheHeader() throws IOException {
        Map<String, Long> recorded = parse(new String(resource("io_uring_h.expected"), StandardCharsets.UTF_8));

        assertThat(recorded).hasSizeGreaterThan(70);
        recorded.forEach((name, value) -> assertThat(javaValue(name)).as(name).isEqualTo(value));
        assertThat(recorded.keySet()).as("every struct is checked").containsAll(STRUCTS.keySet());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void layoutsMatchThisMachinesHeaderCompiledByGcc(@TempDir Path dir) throws Exception {
        Capability.GCC.assume();
        Capability.GCC.assume(Files.exists(HEADER), "no " + HEADER + " (apt-get install linux-libc-dev)");
        Path source = dir.resolve("io_uring_layout.c");
        Files.write(source, resource("io_uring_layout.c"));
        Path binary = dir.resolve("io_uring_layout");
        assertThat(run(dir, "gcc", "-Wall", "-o", binary.toString(), source.toString())).isEmpty();

        Map<String, Long> fromHeader = parse(run(dir, binary.toString()));

        assertThat(fromHeader).hasSizeGreaterThan(70);
        fromHeader.forEach((name, value) -> assertThat(javaValue(name)).as(name).isEqualTo(value));
    }

    @Test
    void derivedOffsetsAreTheOnesTheRingCodeNeeds() {
        assertThat(IoUringStructs.SQE_SIZE).isEqualTo(64);
        assertThat(IoUringStructs.CQE_SIZE).isEqualTo(16);
        assertThat(IoUringStructs.SQE_USER_DATA).isEqualTo(32);
        assertThat(IoUringStructs.SQE_BUF_INDEX).as("buf_group shares buf_index's offset").isEqualTo(40);
        assertThat(IoUringStructs.BUF_RING_TAIL).as("the tail overlays bufs[0].resv")
                .isEqualTo(IoUringStructs.IO_URING_BUF.byteOffset(groupElement("resv")));
    }

    /** {@code io_uring_sqe} → its size; {@code io_uring_sqe.user_data} → that field's offset. */
    private static long javaValue(String name) {
        int dot = name.indexOf('.');
        StructLayout struct = STRUCTS.get(dot < 0 ? name : name.substring(0, dot));
        assertThat(struct).as("a Java layout for " + name).isNotNull();
        return dot < 0 ? struct.byteSize() : struct.byteOffset(groupElement(name.substring(dot + 1)));
    }

    private static Map<String, Long> parse(String text) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] parts = line.trim().split(" ");
            values.put(parts[0], Long.parseLong(parts[1]));
        }
        return values;
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = IoUringStructsTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    /** Runs a command to completion (bounded) and returns its output; fails on a non-zero exit. */
    private static String run(Path dir, String... command) throws Exception {
        Process p = new ProcessBuilder(List.of(command)).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(command[0] + " finished").isTrue();
            assertThat(p.exitValue()).as(command[0] + " exit code; output: " + out).isZero();
            return out;
        } finally {
            p.destroyForcibly();
        }
    }
}

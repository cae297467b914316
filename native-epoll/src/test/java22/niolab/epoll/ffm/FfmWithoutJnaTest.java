package niolab.epoll.ffm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The FFM binding stands alone: a whole loop's worth of calls runs with no JNA on the class path. */
class FfmWithoutJnaTest {

    @Test
    @Timeout(60)
    void anFfmLoopNeedsNoJnaClass() throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("jna"))
                .collect(Collectors.joining(File.pathSeparator));
        assertThat(classPath).doesNotContain("jna-");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", classPath,
                FfmWithoutJna.class.getName())).redirectErrorStream(true).start();
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(output).isEqualTo("ok\n");
            assertThat(p.exitValue()).isZero();
        } finally {
            p.destroyForcibly();
        }
    }
}

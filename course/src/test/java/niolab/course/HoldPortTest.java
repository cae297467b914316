package niolab.course;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lab 4's port holder keeps its port from every later listener, SO_REUSEPORT or not (the
 * exercise Debian's {@code nc -l} cannot serve, since it sets that option), and says in one line
 * when the port is taken or the usage is wrong.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HoldPortTest {
    private static final Path LAB = Paths.get("..").toAbsolutePath().normalize();
    private static final String JAVA = Paths.get(System.getProperty("java.home"), "bin", "java").toString();

    private static Process holdPort(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "labs/tools/HoldPort.java"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(LAB.toFile()).redirectErrorStream(true).start();
    }

    @Test
    void aHeldPortRefusesAReusePortListenerAndASecondHolder() throws Exception {
        Process holder = holdPort("0", "60");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            String first = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    return "unreadable: " + e;
                }
            }).get(60, TimeUnit.SECONDS);
            Matcher m = Pattern.compile("^holding 127\\.0\\.0\\.1:(\\d+) without SO_REUSEPORT for 60 s \\(Ctrl-C ends it\\)$").matcher(String.valueOf(first));
            assertThat(m.matches()).as(first).isTrue();
            int port = Integer.parseInt(m.group(1));

            try (ServerSocketChannel joiner = ServerSocketChannel.open()) {
                joiner.setOption(StandardSocketOptions.SO_REUSEPORT, true);
                assertThatThrownBy(() -> joiner.bind(new InetSocketAddress("127.0.0.1", port))).isInstanceOf(BindException.class);
            }
            Process second = holdPort(Integer.toString(port), "5");
            try {
                assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(second.exitValue()).isEqualTo(1);
                assertThat(new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("error: 127.0.0.1:" + port + " is already in use\n");
            } finally {
                second.destroyForcibly();
            }
        } finally {
            holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void badUsageIsOneLineAndExitTwo() throws Exception {
        Process p = holdPort("ninety");
        try {
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(2);
            assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .startsWith("usage: java labs/tools/HoldPort.java PORT").hasLineCount(1);
        } finally {
            p.destroyForcibly();
        }
    }
}

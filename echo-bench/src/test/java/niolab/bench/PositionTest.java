package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's place on compare's command line no longer decides which one is warmed last, the
 * one that enters the first round straight from its warm-up while the others have idled: the
 * warm-ups run in a fresh random order in every fork. Read through the real
 * command path with a stand-in for wrk that logs each call (its -d and its URL) and prints a
 * finished wrk run, so that no load runs; the servers' logs map each fork's ports to names.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PositionTest {
    private static final int FORKS = 4;
    private static final Pattern CALL = Pattern.compile("-d(\\d+)s http://127\\.0\\.0\\.1:(\\d+)/");
    private static final Pattern LISTENING = Pattern.compile("fake: listening on (\\d+)");

    @Test
    void eitherServerIsWarmedLastInSomeForks(@TempDir Path dir) throws Exception {
        Path calls = dir.resolve("calls.log");
        Path wrk = dir.resolve("wrk");
        Files.writeString(wrk, "#!/bin/sh\n"
                + "for a in \"$@\"; do case \"$a\" in -d*) d=\"$a\";; http://*) u=\"$a\";; esac; done\n"
                + "echo \"$d $u\" >> '" + calls + "'\n"
                + "printf 'Running 1s test @ %s\\n  1 threads and 1 connections\\n  Latency Distribution\\n     50%%  100.00us\\n"
                + "     99%%  200.00us\\n  1000 requests in 1.00s, 100.00KB read\\nRequests/sec:   1000.00\\n' \"$u\"\n");
        Files.setPosixFilePermissions(wrk, PosixFilePermissions.fromString("rwx------"));
        String tag = "position-" + UUID.randomUUID();
        Path logs = dir.resolve("logs");
        Cli run = Cli.run("compare", "--forks", Integer.toString(FORKS), "--rounds", "3", "--slice", "1s", "--warmup", "2s", "--threshold", "2%",
                "--seed", "3", "--load", "wrk", "--wrk", wrk.toString(), "--protocol", "http", "-c", "1", "-k", "--server-logs", logs.toString(),
                "A=" + FakeServer.command("echo", tag), "B=" + FakeServer.command("echo", tag));
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(FakeServer.tagged(tag)).as("every server process stopped").isEmpty();

        Map<Integer, String> portNames = new HashMap<>();
        for (int fork = 1; fork <= FORKS; fork++) {
            for (String name : List.of("A", "B")) {
                Matcher m = LISTENING.matcher(Files.readString(logs.resolve(name + "-fork-" + fork + ".log")));
                assertThat(m.find()).as(name + " fork " + fork + " listened").isTrue();
                portNames.put(Integer.parseInt(m.group(1)), name);
            }
        }
        List<String> warmedLast = new ArrayList<>();
        List<String> warmups = new ArrayList<>();
        int slices = 0;
        for (String line : Files.readAllLines(calls)) {
            Matcher m = CALL.matcher(line);
            assertThat(m.find()).as(line).isTrue();
            String name = portNames.get(Integer.parseInt(m.group(2)));
            if (m.group(1).equals("2")) {
                warmups.add(name);
                if (warmups.size() % 2 == 0) warmedLast.add(name);
            } else {
                slices++;
            }
        }
        assertThat(warmups).hasSize(2 * FORKS);
        assertThat(slices).isEqualTo(2 * 3 * FORKS);
        // warmed in the given order, B (the second named) was last in every fork; seed 3 draws A, A, B, B (seed 11: A in all four)
        assertThat(warmedLast).as("the server warmed last, fork by fork").contains("A", "B");
    }
}

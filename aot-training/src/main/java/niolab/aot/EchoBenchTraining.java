package niolab.aot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import niolab.bench.EchoBench;
import picocli.CommandLine;

/**
 * The training run of echo-bench's AOT cache ({@code make aot}, JDK 25+): the runs the lab's
 * scripts make, one after another in one JVM (a cache records one training run), against an
 * echo server already listening: the serial short-connection run of {@code make run-bench},
 * with the JSON report and server CPU the experiments ask for, then keep-alive and pipelined
 * runs. A run with errors fails the training.
 *
 * <pre>
 *   java -XX:AOTMode=record -XX:AOTConfiguration=F -cp echo-bench.jar:aot-training.jar \
 *       niolab.aot.EchoBenchTraining 127.0.0.1:PORT SERVER_PID
 * </pre>
 */
public final class EchoBenchTraining {
    private EchoBenchTraining() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: EchoBenchTraining HOST:PORT SERVER_PID");
            System.exit(2);
        }
        String target = args[0];
        Path json = Files.createTempFile("echo-bench-training", ".json");
        try {
            List<String[]> runs = List.of(
                    new String[] {"--requests", "500", "--runs", "2", "--json", json.toString(), "--server-pid", args[1]},
                    new String[] {"--keepalive", "--connections", "4", "--requests", "20000", "--warmup", "1000"},
                    new String[] {"--pipeline", "8", "--connections", "2", "--requests", "20000"});
            for (String[] run : runs) {
                String[] full = Arrays.copyOf(run, run.length + 1);
                full[run.length] = target;
                int exit = new CommandLine(new EchoBench()).execute(full);
                if (exit != 0) throw new IllegalStateException("echo-bench " + String.join(" ", full) + " exited " + exit);
            }
        } finally {
            Files.deleteIfExists(json);
        }
        System.out.println("training: echo-bench serial, keep-alive and pipelined runs done");
    }
}

package niolab.reports;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** exp-time-wait's counts of sockets in TIME-WAIT, from what the script saved as it came. */
final class TimeWaitCounts {
    private TimeWaitCounts() {
    }

    /**
     * {@code summarize tw-timeline FILE}: CSV {@code t_s,tw} from the sampler's lines
     * {@code EPOCHREALTIME TCP: inuse N orphan N tw N ...} (/proc/net/sockstat's TCP line), t_s in
     * whole ms since the file's first line, a lone {@code EPOCHREALTIME}: when sampling began.
     */
    @Command(name = "tw-timeline", mixinStandardHelpOptions = true, description = "TIME-WAIT over time, from /proc/net/sockstat lines.",
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:printed", "1:the file cannot be read", "2:bad usage"})
    static final class Timeline extends SummaryCommand {
        @Parameters(paramLabel = "FILE", description = "The sampler's lines.")
        private Path file;

        @Override
        String summary() throws IOException {
            return timeline(Files.readString(file, StandardCharsets.UTF_8));
        }
    }

    static String timeline(String lines) {
        StringBuilder sb = new StringBuilder("t_s,tw\n");
        long t0 = -1;
        for (String line : lines.split("\n")) {
            if (line.isBlank()) continue;
            String[] f = line.trim().split("\\s+");
            long us = Long.parseLong(f[0].replace(".", "")); // EPOCHREALTIME: seconds with six decimals
            if (t0 < 0) t0 = us;
            int tw = Arrays.asList(f).indexOf("tw");
            if (tw < 0 || tw + 1 >= f.length) continue;
            long ms = (us - t0) / 1000;
            sb.append(ms / 1000).append('.').append(String.format(Locale.ROOT, "%03d", ms % 1000)).append(',').append(f[tw + 1]).append('\n');
        }
        return sb.toString();
    }

    /**
     * {@code summarize tw-holders --port P FILE}: CSV {@code side,tw}: of the TIME-WAIT sockets that
     * {@code ss -Htan state time-wait} listed in FILE, those whose local port is P (the server's)
     * and the others (the clients').
     */
    @Command(name = "tw-holders", mixinStandardHelpOptions = true, description = "Which side holds the TIME-WAIT sockets ss listed.",
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:printed", "1:the file cannot be read", "2:bad usage"})
    static final class Holders extends SummaryCommand {
        @Option(names = "--port", required = true, paramLabel = "P", description = "The server's port.")
        private int port;

        @Parameters(paramLabel = "FILE", description = "ss -Htan state time-wait's output.")
        private Path file;

        @Override
        String summary() throws IOException {
            return holders(Files.readString(file, StandardCharsets.UTF_8), port);
        }
    }

    /** ss's columns with a state filter: Recv-Q Send-Q Local:Port Peer:Port. */
    static String holders(String ss, int port) {
        long server = 0, client = 0;
        for (String line : ss.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 3) continue;
            if (f[2].endsWith(":" + port)) server++;
            else client++;
        }
        return "side,tw\nclient," + client + "\nserver," + server + "\n";
    }
}

package niolab.reports;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code summarize strace TRACE --process NAME}: the calls of a {@code strace -f} trace by
 * thread and kind, as CSV rows {@code process,thread,syscall,calls,errors,eagain} sorted, where
 * thread is {@code loop} for the threads that call epoll_wait and {@code jvm} for every other.
 * A call counts when its result shows (a whole line, or the {@code <... resumed>} half), as
 * {@code strace -c} counts. With {@code --summary}, TRACE is instead {@code strace -c}'s table and
 * the rows are {@code process,syscall,calls,errors} (the total line left out).
 */
@Command(name = "strace", mixinStandardHelpOptions = true, description = "Counts a strace -f trace's calls by thread and kind.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:printed", "1:the trace cannot be read", "2:bad usage"})
final class StraceCount extends SummaryCommand {
    private static final Pattern CALL = Pattern.compile("([a-z_0-9]+)\\(.*");
    private static final Pattern ERROR = Pattern.compile("= -1 (E[A-Z0-9]+)");
    /** strace -c: % time, seconds, usecs/call, calls, [errors], syscall. */
    private static final Pattern SUMMARY_ROW = Pattern.compile("\\s*[0-9.]+\\s+[0-9.]+\\s+\\d+\\s+(\\d+)\\s+(?:(\\d+)\\s+)?([a-z_0-9]+)\\s*");

    @Parameters(paramLabel = "TRACE", description = "strace -f -o's trace (with --summary: strace -c -o's table).")
    private Path trace;

    @Option(names = "--process", required = true, paramLabel = "NAME", description = "The first cell of every row.")
    private String process;

    @Option(names = "--summary", description = "TRACE is strace -c's table.")
    private boolean summary;

    @Override
    String summary() throws IOException {
        String text = Files.readString(trace, StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        for (String row : summary ? summaryRows(text, process) : rows(text, process)) out.append(row).append('\n');
        return out.toString();
    }

    static List<String> rows(String trace, String process) {
        Map<String, long[]> perThread = new LinkedHashMap<>(); // "TID NAME" -> calls, errors, EAGAIN
        Set<String> loops = new HashSet<>();
        String name = null;
        for (String line : trace.split("\n")) {
            String[] f = line.trim().split("\\s+", 4);
            if (f.length < 2) continue;
            if (f[1].equals("<...") && f.length > 2) {
                name = f[2];
            } else {
                Matcher call = CALL.matcher(f[1]);
                if (!call.lookingAt()) continue; // signals, exits
                name = call.group(1);
                if (name.equals("epoll_wait") || name.equals("epoll_pwait")) loops.add(f[0]);
            }
            if (line.endsWith("<unfinished ...>")) continue;
            long[] c = perThread.computeIfAbsent(f[0] + " " + name, k -> new long[3]);
            c[0]++;
            Matcher error = ERROR.matcher(line);
            if (error.find()) {
                c[1]++;
                if (error.group(1).equals("EAGAIN")) c[2]++;
            }
        }
        Map<String, long[]> perKind = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : perThread.entrySet()) {
            String tid = e.getKey().substring(0, e.getKey().indexOf(' ')), call = e.getKey().substring(tid.length() + 1);
            long[] c = perKind.computeIfAbsent((loops.contains(tid) ? "loop" : "jvm") + "," + call, k -> new long[3]);
            for (int i = 0; i < 3; i++) c[i] += e.getValue()[i];
        }
        List<String> rows = new ArrayList<>();
        perKind.forEach((k, c) -> rows.add(process + "," + k + "," + c[0] + "," + c[1] + "," + c[2]));
        rows.sort(null);
        return rows;
    }

    static List<String> summaryRows(String table, String process) {
        List<String> rows = new ArrayList<>();
        for (String line : table.split("\n")) {
            Matcher m = SUMMARY_ROW.matcher(line);
            if (!m.matches() || m.group(3).equals("total")) continue;
            rows.add(process + "," + m.group(3) + "," + m.group(1) + "," + (m.group(2) == null ? "0" : m.group(2)));
        }
        return rows;
    }
}

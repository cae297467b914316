package niolab.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One experiment's raw results folder, {@code experiments/results/NAME/}, and typed reads from it. */
public final class Results {
    public final Path dir;

    public Results(Path dir) {
        this.dir = dir;
    }

    public boolean has(String file) {
        return Files.isRegularFile(dir.resolve(file));
    }

    public String text(String file) {
        try {
            return Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir.resolve(file) + " (run the experiment first)", e);
        }
    }

    public Map<String, Object> json(String file) {
        return JsonReader.object(text(file));
    }

    /** A CSV file with a header line (no quoting): one map per row, column name to cell. */
    public List<Map<String, String>> csv(String file) {
        String[] lines = text(file).split("\n");
        String[] header = lines[0].split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            String[] cells = lines[i].split(",", header.length);
            Map<String, String> row = new LinkedHashMap<>();
            for (int c = 0; c < header.length; c++) row.put(header[c], c < cells.length ? cells[c] : "");
            rows.add(row);
        }
        return rows;
    }

    /**
     * The last {@code counters: k=v ...} line of a lab server's output (mp: the summed one,
     * not the {@code [wN]} ones), as numbers by name.
     */
    public Map<String, Double> counters(String file) {
        String last = null;
        for (String line : text(file).split("\n")) {
            if (line.startsWith("counters:")) last = line;
        }
        if (last == null) throw new IllegalArgumentException(dir.resolve(file) + " has no counters line");
        Map<String, Double> c = new LinkedHashMap<>();
        for (String kv : last.substring("counters:".length()).trim().split("\\s+")) {
            int eq = kv.indexOf('=');
            if (eq > 0) c.put(kv.substring(0, eq), Double.parseDouble(kv.substring(eq + 1)));
        }
        return c;
    }

    /** Follows a path of keys and list indexes, e.g. {@code get(doc, "mean", "latency_us", "p99")}. */
    @SuppressWarnings("unchecked")
    public static Object get(Object node, Object... path) {
        Object n = node;
        for (Object p : path) {
            if (n instanceof Map && p instanceof String) {
                n = ((Map<String, Object>) n).get(p);
            } else if (n instanceof List && p instanceof Integer) {
                n = ((List<Object>) n).get((Integer) p);
            } else {
                throw new IllegalArgumentException("no " + p + " in " + describe(n));
            }
            if (n == null) throw new IllegalArgumentException("missing " + p);
        }
        return n;
    }

    public static double num(Object node, Object... path) {
        Object v = get(node, path);
        if (v instanceof Number) return ((Number) v).doubleValue();
        if (v instanceof String) return Double.parseDouble((String) v);
        throw new IllegalArgumentException("not a number at " + List.of(path));
    }

    @SuppressWarnings("unchecked")
    public static List<Object> list(Object node, Object... path) {
        return (List<Object>) get(node, path);
    }

    private static String describe(Object n) {
        return n == null ? "null" : n.getClass().getSimpleName();
    }

    /** The environment block every report carries, from {@code env.json}. */
    public String environment() {
        Map<String, Object> e = json("env.json");
        StringBuilder sb = new StringBuilder("| | |\n|---|---|\n");
        String[][] rows = {
                {"date (UTC)", "date"}, {"CPU", "cpu"}, {"cores", "cores"}, {"memory", "memory"},
                {"kernel", "kernel"}, {"JDK", "jdk"}, {"JVM flags (JAVA_OPTS)", "java_opts"},
                {"server pinned to CPU", "server_cpu"}, {"client pinned to CPU", "client_cpu"},
                {"ulimit -n", "ulimit_n"}, {"ip_local_port_range", "ip_local_port_range"},
                {"tcp_tw_reuse", "tcp_tw_reuse"}, {"commit", "commit"}};
        for (String[] r : rows) {
            Object v = e.get(r[1]);
            String s = v == null ? "" : v instanceof Double && (Double) v == Math.rint((Double) v)
                    ? Long.toString(((Double) v).longValue()) : v.toString();
            if (s.isEmpty()) s = "(none)";
            sb.append("| ").append(r[0]).append(" | `").append(s.replace("|", "\\|")).append("` |\n");
        }
        return sb.toString().trim();
    }
}

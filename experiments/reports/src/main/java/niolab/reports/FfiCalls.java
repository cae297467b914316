package niolab.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import niolab.common.AtomicFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code summarize ffi DIR}: {@code make bench-ffi}'s figures per call, from what it measured
 * (DIR/c.csv, the C loop's ns per call per round; DIR/jmh.json, JMH's): for C and each Java
 * binding the median and the fastest over the rounds (JMH's iterations), and JMH's bytes
 * allocated per call. Writes DIR/results.json (what the ffi report reads) and DIR/results.csv;
 * prints two tables: ns per call with each binding's overhead over C, and B/op.
 */
@Command(name = "ffi", mixinStandardHelpOptions = true, description = "make bench-ffi's medians per call, from c.csv and jmh.json.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:written", "1:a file cannot be read or written", "2:bad usage"})
final class FfiCalls extends SummaryCommand {
    static final List<String> CALLS = List.of("epollWait", "readEagain", "send64");
    /** JMH's benchmark classes (niolab.microbench.CLASS.call) and their columns. */
    private static final Map<String, String> COLUMN = Map.of("JnaCosts", "jna", "FfmCosts", "ffm", "FfmCriticalCosts", "ffm_critical",
            "SocketChannelCosts", "socketchannel");
    private static final List<String> BINDINGS = List.of("jna", "ffm", "ffm_critical", "socketchannel");

    @Parameters(paramLabel = "DIR", description = "make bench-ffi's results folder (RESULTS_DIR).")
    private Path dir;

    @Override
    String summary() throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Map<String, Object>> calls = calls(Csv.parse(Files.readString(dir.resolve("c.csv"), StandardCharsets.UTF_8), "c.csv"),
                json.readTree(dir.resolve("jmh.json").toFile()));
        json.enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("results.json").toFile(), calls);
        AtomicFile.write(dir.resolve("results.csv"), csv(calls));
        return tables(calls);
    }

    /** A map per call: call, c_ns, c_min_ns, then BINDING_ns, BINDING_min_ns and BINDING_bytes_per_op in JMH's order. */
    static List<Map<String, Object>> calls(Csv c, JsonNode jmh) {
        List<Map<String, Object>> calls = new ArrayList<>();
        for (String call : CALLS) {
            Map<String, Object> m = new LinkedHashMap<>();
            double[] rounds = c.numbers("ns_per_call", "call", call);
            m.put("call", call);
            m.put("c_ns", rounds.length == 0 ? null : Stats.median(rounds));
            m.put("c_min_ns", rounds.length == 0 ? null : Arrays.stream(rounds).min().getAsDouble());
            for (JsonNode run : jmh) {
                String[] name = run.path("benchmark").asText().split("\\.");
                String column = name.length < 2 ? null : COLUMN.get(name[name.length - 2]);
                if (column == null || !name[name.length - 1].equals(call)) continue;
                List<Double> raw = new ArrayList<>();
                for (JsonNode fork : run.path("primaryMetric").path("rawData")) for (JsonNode v : fork) raw.add(v.asDouble());
                double[] ns = raw.stream().mapToDouble(Double::doubleValue).toArray();
                JsonNode bytes = run.path("secondaryMetrics").path("gc.alloc.rate.norm").path("score");
                m.put(column + "_ns", ns.length == 0 ? null : Stats.median(ns));
                m.put(column + "_min_ns", ns.length == 0 ? null : Arrays.stream(ns).min().getAsDouble());
                m.put(column + "_bytes_per_op", bytes.isNumber() ? bytes.asDouble() : null);
            }
            calls.add(m);
        }
        return calls;
    }

    static String csv(List<Map<String, Object>> calls) {
        List<String> columns = new ArrayList<>(List.of("call", "c_ns"));
        for (String b : BINDINGS) columns.add(b + "_ns");
        for (String b : BINDINGS) columns.add(b + "_bytes_per_op");
        StringBuilder sb = new StringBuilder(String.join(",", columns)).append('\n');
        for (Map<String, Object> m : calls) {
            List<String> cells = new ArrayList<>();
            for (String col : columns) cells.add(m.get(col) == null ? "" : String.valueOf(m.get(col)));
            sb.append(String.join(",", cells)).append('\n');
        }
        return sb.toString();
    }

    /** The ns table (medians; overheads over C; FFM's and FFM critical's overhead over JNA's), a blank line, the B/op table. */
    static String tables(List<Map<String, Object>> calls) {
        List<List<String>> ns = new ArrayList<>(), bytes = new ArrayList<>();
        ns.add(List.of("call", "C", "JNA", "FFM", "FFM-crit", "SocketChannel", "JNA-C", "FFM-C", "crit-C", "(FFM-C)/(JNA-C)",
                "(crit-C)/(JNA-C)"));
        bytes.add(List.of("B/op", "JNA", "FFM", "FFM-crit", "SocketChannel"));
        for (Map<String, Object> m : calls) {
            Double c = num(m, "c_ns"), jna = over(num(m, "jna_ns"), c), ffm = over(num(m, "ffm_ns"), c);
            Double crit = over(num(m, "ffm_critical_ns"), c);
            ns.add(List.of((String) m.get("call"), round(c, 10), round(num(m, "jna_ns"), 10), round(num(m, "ffm_ns"), 10),
                    round(num(m, "ffm_critical_ns"), 10), round(num(m, "socketchannel_ns"), 10), round(jna, 10), round(ffm, 10),
                    round(crit, 10), ratio(ffm, jna), ratio(crit, jna)));
            List<String> row = new ArrayList<>(List.of((String) m.get("call")));
            for (String b : BINDINGS) row.add(round(num(m, b + "_bytes_per_op"), 100));
            bytes.add(row);
        }
        return aligned(ns) + "\n" + aligned(bytes);
    }

    /** Left-aligned columns two spaces apart, as column -t sets them. */
    private static String aligned(List<List<String>> rows) {
        int[] width = new int[rows.get(0).size()];
        for (List<String> r : rows) for (int i = 0; i < r.size(); i++) width[i] = Math.max(width[i], r.get(i).length());
        StringBuilder sb = new StringBuilder();
        for (List<String> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                sb.append(r.get(i));
                if (i < r.size() - 1) sb.append(" ".repeat(width[i] - r.get(i).length() + 2));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static Double num(Map<String, Object> m, String key) {
        return (Double) m.get(key);
    }

    private static Double over(Double x, Double c) {
        return x == null || c == null ? null : x - c;
    }

    private static String ratio(Double a, Double b) {
        return a == null || b == null || b <= 0 ? "-" : round(a / b, 100);
    }

    /** v rounded to 1/scale, half away from zero, without trailing zeros ("-" when not measured). */
    private static String round(Double v, int scale) {
        if (v == null) return "-";
        double r = Math.signum(v) * Math.round(Math.abs(v) * scale) / scale;
        return BigDecimal.valueOf(r).stripTrailingZeros().toPlainString();
    }
}

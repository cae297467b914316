package niolab.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A header-first CSV without quoting (what bench.sh and the experiment scripts write). */
public final class Csv {
    public final List<Map<String, String>> rows = new ArrayList<>();

    public static Csv parse(String text) {
        Csv csv = new Csv();
        String[] lines = text.split("\r?\n");
        if (lines.length == 0) return csv;
        String[] header = lines[0].split(",", -1);
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            String[] cells = lines[i].split(",", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int c = 0; c < header.length && c < cells.length; c++) row.put(header[c], cells[c]);
            csv.rows.add(row);
        }
        return csv;
    }

    /** The numeric column {@code value} of the rows whose {@code key} columns equal the given values, in file order. */
    public double[] values(String value, String... keyValuePairs) {
        List<Double> out = new ArrayList<>();
        for (Map<String, String> row : rows) {
            boolean match = true;
            for (int k = 0; k < keyValuePairs.length; k += 2) {
                if (!keyValuePairs[k + 1].equals(row.get(keyValuePairs[k]))) {
                    match = false;
                    break;
                }
            }
            if (match) out.add(Double.parseDouble(row.get(value)));
        }
        double[] v = new double[out.size()];
        for (int i = 0; i < v.length; i++) v[i] = out.get(i);
        return v;
    }
}

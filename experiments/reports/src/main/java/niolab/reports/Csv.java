package niolab.reports;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A header-first CSV without quoting, as bench.sh and the experiment scripts write it: a
 * header line of distinct column names, then rows (a file without one is an error). A row
 * shorter than the header has empty cells at its end; an empty cell is a value that was not
 * measured and reads as NaN. A row longer than the header is an error: it means a cell held a
 * comma, and guessing which would shift every number after it.
 */
public final class Csv {
    private final String source;
    private final List<Map<String, String>> rows = new ArrayList<>();
    private List<String> header = List.of();

    private Csv(String source) {
        this.source = source;
    }

    /** {@code source} names the file in errors. */
    public static Csv parse(String text, String source) {
        Csv csv = new Csv(source);
        String[] lines = text.split("\r?\n");
        if (lines.length == 0 || lines[0].isBlank()) throw new IllegalArgumentException(source + ": no header line");
        String[] header = lines[0].split(",", -1);
        Set<String> names = new HashSet<>();
        for (String name : header) {
            // A row is a map by column name: a second column of one name would hide the first's cells.
            if (!names.add(name)) throw new IllegalArgumentException(source + " line 1: column '" + name + "' twice in the header");
        }
        csv.header = List.of(header);
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            String[] cells = lines[i].split(",", -1);
            if (cells.length > header.length) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": " + cells.length + " cells under a header of "
                        + header.length);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int c = 0; c < header.length; c++) row.put(header[c], c < cells.length ? cells[c] : "");
            csv.rows.add(row);
        }
        return csv;
    }

    /** The column names, in file order. */
    public List<String> header() {
        return header;
    }

    public List<Map<String, String>> rows() {
        return rows;
    }

    /** A cell as a number: NaN when empty. */
    public static double number(String cell) {
        return cell == null || cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
    }

    /** The column {@code value} as numbers, of the rows whose key columns equal the given values, in file order. */
    public double[] numbers(String value, String... keyValuePairs) {
        List<Map<String, String>> match = where(keyValuePairs);
        double[] v = new double[match.size()];
        for (int i = 0; i < v.length; i++) v[i] = number(match.get(i).get(value));
        return v;
    }

    /** The one row whose key columns equal the given values. */
    public Map<String, String> row(String... keyValuePairs) {
        List<Map<String, String>> match = where(keyValuePairs);
        if (match.size() != 1) {
            throw new IllegalArgumentException(source + ": " + match.size() + " rows, not one, where "
                    + String.join(" ", keyValuePairs));
        }
        return match.get(0);
    }

    private List<Map<String, String>> where(String... keyValuePairs) {
        List<Map<String, String>> out = new ArrayList<>();
        for (Map<String, String> row : rows) {
            boolean match = true;
            for (int k = 0; k < keyValuePairs.length && match; k += 2) {
                match = keyValuePairs[k + 1].equals(row.get(keyValuePairs[k]));
            }
            if (match) out.add(row);
        }
        return out;
    }
}

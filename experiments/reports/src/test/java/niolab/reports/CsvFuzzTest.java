package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Coverage-guided fuzzing of the reader of the results CSVs that bench.sh and the experiment
 * scripts write and {@code make reports} reads. Its contract: a table, or an {@link
 * IllegalArgumentException} naming the file, never another exception; every row has the
 * header's columns; and a table written as the scripts write it (a header, then rows of cells
 * without commas or line ends) reads back cell for cell.
 */
class CsvFuzzTest {
    @FuzzTest
    void anyText(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        Csv csv;
        try {
            csv = Csv.parse(text, "fuzz.csv");
        } catch (IllegalArgumentException refused) {
            assertThat(refused.getMessage()).startsWith("fuzz.csv");
            return;
        }
        for (Map<String, String> row : csv.rows()) {
            assertThat(new ArrayList<>(row.keySet())).isEqualTo(csv.header());
            for (String cell : row.values()) {
                try {
                    Csv.number(cell);
                } catch (NumberFormatException notANumber) {
                    // a text cell: the declared error of a number that is none
                }
            }
        }
    }

    @FuzzTest
    void aWrittenTableReadsBack(FuzzedDataProvider data) {
        int columns = data.consumeInt(1, 8);
        List<String> header = new ArrayList<>();
        for (int c = 0; c < columns; c++) header.add(cell(data) + "c" + c); // distinct names, as the scripts write them
        int rows = data.consumeInt(0, 8);
        List<List<String>> cells = new ArrayList<>();
        StringBuilder text = new StringBuilder(String.join(",", header)).append('\n');
        for (int r = 0; r < rows; r++) {
            List<String> row = new ArrayList<>();
            for (int c = 0; c < columns; c++) row.add(cell(data));
            if (String.join("", row).isBlank()) row.set(0, "0"); // a blank line is no row
            cells.add(row);
            text.append(String.join(",", row)).append(data.consumeBoolean() ? "\n" : "\r\n");
        }
        Csv csv = Csv.parse(text.toString(), "fuzz.csv");
        assertThat(csv.header()).isEqualTo(header);
        assertThat(csv.rows()).hasSize(rows);
        for (int r = 0; r < rows; r++) assertThat(new ArrayList<>(csv.rows().get(r).values())).isEqualTo(cells.get(r));
    }

    /** A cell as the scripts write one: no comma, no line end. */
    private static String cell(FuzzedDataProvider data) {
        return data.consumeString(12).replaceAll("[,\r\n]", "");
    }
}

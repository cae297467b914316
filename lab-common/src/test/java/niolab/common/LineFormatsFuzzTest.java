package niolab.common;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Map;

/**
 * Coverage-guided fuzzing of the two line formats that cross a process boundary: a server's
 * ready line and its counters line. Each parser returns a result or null (ready line) and never
 * throws; what {@code format} writes, {@code parse} reads back unchanged.
 */
class LineFormatsFuzzTest {
    @FuzzTest
    void readyLine(FuzzedDataProvider data) {
        String host = data.consumeString(64);
        int port = data.consumeInt(0, 65535);
        String label = data.consumeString(200);
        String line = data.consumeRemainingAsString();

        ReadyLine any = ReadyLine.parse(line);
        if (any != null) assertThat(ReadyLine.parse(any.toString())).as("a parsed line written again").isEqualTo(any);

        ReadyLine written = ReadyLine.parse(ReadyLine.format(host, port, label));
        if (writable(host, label)) assertThat(written).isEqualTo(new ReadyLine(host, port, label));
    }

    /** What a server can print: a host literal without blanks or brackets, a label on one line. */
    private static boolean writable(String host, String label) {
        return !host.isEmpty() && host.chars().noneMatch(c -> c == '[' || c == ']' || (host.indexOf(':') < 0 && isBlank(c)))
                && label.chars().noneMatch(c -> c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029');
    }

    private static boolean isBlank(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    @FuzzTest
    void countersLine(FuzzedDataProvider data) {
        int n = data.consumeInt(0, 12);
        String[] names = new String[n];
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = data.consumeString(24);
            values[i] = data.consumeLong();
        }
        String line = data.consumeRemainingAsString();

        Map<String, Long> any = CountersLine.parse(line);
        assertThat(any).doesNotContainKey("");
        CountersLine.last(line);

        Map<String, Long> written = CountersLine.parse(CountersLine.PREFIX + CountersLine.format(names, values));
        if (counterNames(names)) {
            assertThat(written).hasSize(n);
            for (int i = 0; i < n; i++) assertThat(written).containsEntry(names[i], values[i]);
        }
    }

    /** The servers' counter names: distinct lower-case words. */
    private static boolean counterNames(String[] names) {
        for (int i = 0; i < names.length; i++) {
            if (!names[i].matches("[a-z_]+")) return false;
            for (int j = 0; j < i; j++) if (names[j].equals(names[i])) return false;
        }
        return true;
    }
}

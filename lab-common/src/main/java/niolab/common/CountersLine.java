package niolab.common;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one text form of a server's counters: {@code name=value} pairs separated by spaces, as
 * the servers print them after {@code counters: } (on exit) and {@code stats: } (periodically).
 * Servers format with it, the mp master and the tests parse with it, and so does the report
 * generator, which must not depend on server code.
 *
 * <pre>
 *   counters: accepts=3 reads=9 ... selects=12 events=15 events_per_wait=1.25
 *   Map&lt;String, Long&gt; c = CountersLine.parse(CountersLine.last(output));
 * </pre>
 * Derived values (a ratio with a decimal point) are printed for people and skipped by {@link #parse}.
 */
public final class CountersLine {
    public static final String PREFIX = "counters: ";
    public static final String STATS_PREFIX = "stats: ";

    private CountersLine() {
    }

    /** {@code n1=v1 n2=v2 ...}; {@code names} and {@code values} are parallel. */
    public static String format(String[] names, long[] values) {
        StringBuilder b = new StringBuilder(names.length * 16);
        for (int i = 0; i < names.length; i++) {
            if (i > 0) b.append(' ');
            b.append(names[i]).append('=').append(values[i]);
        }
        return b.toString();
    }

    /**
     * The whole-number pairs of a counters line, in order; the line may still carry its
     * {@code counters: } or {@code stats: } prefix (or a worker's {@code [w1] } tag before it).
     */
    public static Map<String, Long> parse(String line) {
        Map<String, Long> values = new LinkedHashMap<>();
        String text = line;
        int p = text.indexOf(PREFIX);
        if (p >= 0) text = text.substring(p + PREFIX.length());
        else if ((p = text.indexOf(STATS_PREFIX)) >= 0) text = text.substring(p + STATS_PREFIX.length());
        for (String pair : text.trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) continue;
            try {
                values.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
            } catch (NumberFormatException derived) {
                // a ratio such as events_per_wait: for reading, not for summing
            }
        }
        return values;
    }

    /** The last line of {@code output} that starts with {@code counters: } (mp: the master's sum), or null. */
    public static String last(String output) {
        String last = null;
        for (String line : output.split("\n")) {
            if (line.startsWith(PREFIX)) last = line;
        }
        return last;
    }
}

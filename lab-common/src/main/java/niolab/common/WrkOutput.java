package niolab.common;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one wrk run printed, read from its text: the one parser for wrk's output, used by
 * {@code echo-bench compare --load wrk} and by the report generator.
 *
 * <pre>
 *   WrkOutput w = WrkOutput.parse(text);   // w.requestsPerSecond(), w.p99Us() (NaN without --latency)
 * </pre>
 *
 * @param requests responses counted ("130389 requests in 5.10s")
 * @param seconds the run's wall time as wrk states it
 * @param requestsPerSecond wrk's "Requests/sec"
 * @param p50Us the median latency from "Latency Distribution" (wrk --latency), µs, or NaN
 * @param p99Us the 99th percentile likewise, or NaN
 * @param errors socket errors (connect, read, write, timeout) plus non-2xx/3xx responses
 */
public record WrkOutput(long requests, double seconds, double requestsPerSecond, double p50Us, double p99Us, long errors) {
    private static final Pattern TOTAL = Pattern.compile("(?m)^\\s*(\\d+) requests in ([0-9.]+)(us|ms|s|m|h),");
    private static final Pattern RATE = Pattern.compile("(?m)^Requests/sec:\\s+([0-9.]+)");
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "(?m)^\\s*Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON_2XX = Pattern.compile("(?m)^\\s*Non-2xx or 3xx responses: (\\d+)");

    /** Thrown for text that is not a finished wrk run (wrk could not connect, or was killed). */
    public static final class NotWrkOutput extends IllegalArgumentException {
        NotWrkOutput(String message) {
            super(message);
        }
    }

    public static WrkOutput parse(String text) {
        Matcher total = TOTAL.matcher(text);
        Matcher rate = RATE.matcher(text);
        if (!total.find() || !rate.find()) {
            String first = text.strip().lines().findFirst().orElse("(nothing)");
            throw new NotWrkOutput("not a finished wrk run: " + first);
        }
        long errors = 0;
        Matcher socket = SOCKET_ERRORS.matcher(text);
        if (socket.find()) {
            for (int g = 1; g <= 4; g++) errors += Long.parseLong(socket.group(g));
        }
        Matcher non2xx = NON_2XX.matcher(text);
        if (non2xx.find()) errors += Long.parseLong(non2xx.group(1));
        return new WrkOutput(Long.parseLong(total.group(1)), micros(total.group(2), total.group(3)) / 1e6,
                Double.parseDouble(rate.group(1)), percentileUs(text, "50"), percentileUs(text, "99"), errors);
    }

    /** "99%  1.02ms" in the Latency Distribution block, in µs; NaN when wrk ran without --latency. */
    private static double percentileUs(String text, String percent) {
        Matcher m = Pattern.compile("(?m)^\\s*" + Pattern.quote(percent) + "(?:\\.0+)?%\\s+([0-9.]+)(us|ms|s|m|h)\\s*$").matcher(text);
        return m.find() ? micros(m.group(1), m.group(2)) : Double.NaN;
    }

    /** wrk's time units, as its format_time prints them. */
    private static double micros(String value, String unit) {
        double v = Double.parseDouble(value);
        switch (unit) {
            case "us": return v;
            case "ms": return v * 1e3;
            case "s": return v * 1e6;
            case "m": return v * 60e6;
            default: return v * 3600e6;
        }
    }
}

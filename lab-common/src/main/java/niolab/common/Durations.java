package niolab.common;

import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses {@code 250ms}, {@code 5s}, {@code 2m}, or a bare number of seconds. */
public final class Durations implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        String v = value.trim().toLowerCase();
        try {
            if (v.endsWith("ms")) return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            if (v.endsWith("s")) return Duration.ofMillis(Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
            if (v.endsWith("m")) return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)) * 60);
            return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a duration (try 500ms, 5s or 2m)");
        }
    }

    /** {@code 30s}, {@code 1.5s} or {@code 250ms}: the inverse of {@link #parse}, for headers. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 1000 == 0) return ms / 1000 + "s";
        return ms >= 1000 ? (ms / 1000.0) + "s" : ms + "ms";
    }
}

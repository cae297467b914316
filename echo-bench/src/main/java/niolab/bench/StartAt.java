package niolab.bench;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --start-at TIME}: an absolute wall-clock time, ISO-8601 with its zone
 * ({@code 2026-05-01T12:00:00Z}, {@code 2026-05-01T14:00:00+02:00}) or seconds since the epoch
 * ({@code 1777636800}, {@code date -d '+30 sec' +%s}). A time without a zone is refused: hosts
 * in different zones would read it differently.
 */
final class StartAt implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
        String v = value.trim();
        try {
            if (v.matches("\\d+(\\.\\d+)?")) {
                BigDecimal seconds = new BigDecimal(v);
                return Instant.ofEpochSecond(seconds.longValue(), seconds.remainder(BigDecimal.ONE).movePointRight(9).longValue());
            }
            return Instant.parse(v);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new TypeConversionException("'" + value + "' is not a time: give ISO-8601 with a zone "
                    + "(2026-05-01T12:00:00Z) or seconds since the epoch");
        }
    }

    /** Sleeps until {@code at} by the wall clock, which is what generators on several hosts share. */
    static void sleepUntil(Instant at) {
        long left;
        while ((left = at.toEpochMilli() - System.currentTimeMillis()) > 0) {
            try {
                Thread.sleep(Math.min(left, 1000)); // re-read the clock: NTP may slew it meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

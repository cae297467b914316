package niolab.bench;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --protocol}: what a request is and how its response is checked. */
enum WireProtocol {
    /** The payload comes back byte for byte. */
    ECHO,
    /** {@code GET /ping}, answered {@code 200} with {@code {"status":"ok"}}. */
    HTTP;

    /** The name on the command line and in reports: {@code echo}, {@code http}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Lower-case names, and the lab's own message for anything else. */
    static final class Converter implements ITypeConverter<WireProtocol> {
        @Override
        public WireProtocol convert(String value) {
            for (WireProtocol p : values()) {
                if (p.toString().equals(value)) return p;
            }
            throw new TypeConversionException("--protocol must be echo or http, not '" + value + "'");
        }
    }
}

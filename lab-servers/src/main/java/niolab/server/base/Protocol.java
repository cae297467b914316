package niolab.server.base;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** What a server speaks: {@code --protocol echo|http}. */
public enum Protocol {
    /** Every byte back, in order. */
    ECHO,
    /** HTTP/1.1 {@code GET /ping}, see {@link niolab.server.proto.HttpPing}. */
    HTTP;

    /** The name users type and the ready line shows: {@code echo} or {@code http}. */
    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Accepts {@code echo} and {@code http} in any case. */
    public static final class Converter implements ITypeConverter<Protocol> {
        @Override
        public Protocol convert(String value) {
            for (Protocol p : values()) {
                if (p.name().equalsIgnoreCase(value.trim())) return p;
            }
            throw new TypeConversionException("'" + value + "' is not a protocol (echo or http)");
        }
    }
}

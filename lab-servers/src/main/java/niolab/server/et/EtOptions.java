package niolab.server.et;

import niolab.epoll.Bindings;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** et's own options: a mixin of {@code et}, and of {@code mp}, which hands them to its et workers. */
public final class EtOptions {
    @Option(names = "--binding", defaultValue = "jna", converter = BindingName.class,
            description = "How et's loop calls libc: jna (JNA direct mapping) or ffm (the FFM API, JDK 22+) (default: ${DEFAULT-VALUE}).")
    String binding;

    /** A name {@link Bindings#named} takes; a JDK too old for it is said when the server starts. */
    static final class BindingName implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                return Bindings.checkName(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}

package niolab.epoll;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.stream.Stream;

/** The bindings a parameterised test runs on: JNA always, FFM where the JVM has it (else skipped, saying why). */
final class BindingsUnderTest {
    private BindingsUnderTest() {
    }

    /** For {@code @MethodSource("niolab.epoll.BindingsUnderTest#names")}. */
    static Stream<String> names() {
        return Stream.of("jna", "ffm");
    }

    /** The binding named, made on this thread (FFM's errno segment belongs to its maker's thread). */
    static Syscalls open(String name) {
        if (name.equals("ffm")) {
            assumeTrue(Runtime.version().feature() >= 22,
                    "FFM needs JDK 22 or newer; this JVM is " + Runtime.version().feature());
        }
        return Bindings.named(name);
    }
}

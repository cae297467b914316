package niolab.epoll;

import java.util.stream.Stream;
import niolab.testkit.Capability;

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
            Capability.JDK_22.assume();
        }
        return Bindings.named(name);
    }
}

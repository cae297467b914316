package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Capability;

/**
 * The command lines of the uring contract tests. Each suite calls {@code serverUnderTest()} before it
 * starts anything, so the assumption here skips the suite, with the reason, on a machine
 * where io_uring is unavailable (no kernel support, disabled by sysctl or seccomp).
 *
 * <p>The echo, HTTP and allocation suites run in all three modes; the fault suite, about a
 * minute under load per server, runs in the default mode only (bufring on Linux 6.17+).
 */
final class UringArch {
    private UringArch() {
    }

    /** {@code command} as the server under test, if io_uring is usable here. */
    static ServerUnderTest of(String... command) {
        Capability.IO_URING.assume();
        return ServerUnderTest.of(command);
    }
}

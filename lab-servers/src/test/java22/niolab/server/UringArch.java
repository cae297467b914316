package niolab.server;

import java.util.List;
import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Capability;
import niolab.uring.UringSupport;
import org.junit.jupiter.api.Assumptions;

/**
 * The command lines of the uring contract tests. Each suite calls {@code serverUnderTest()} before it
 * starts anything, so the assumption here skips the suite, with the reason, on a machine
 * where io_uring is unavailable (no kernel support, disabled by sysctl or seccomp).
 *
 * <p>The echo, HTTP and allocation suites run in basic, multishot and bufring; sqpoll, whose
 * buffers and protocols are bufring's and whose submission alone differs, in echo and allocation.
 * The fault suite, about a minute under load per server, runs in the default mode only (bufring
 * on Linux 6.17+). A command asking for sqpoll is skipped, with the kernel's reason, where SQPOLL
 * rings are refused.
 */
final class UringArch {
    private UringArch() {
    }

    /** {@code command} as the server under test, if io_uring is usable here. */
    static ServerUnderTest of(String... command) {
        Capability.IO_URING.assume();
        if (List.of(command).contains("sqpoll")) {
            String refused = UringSupport.sqPollReason();
            Assumptions.assumeTrue(refused == null, refused);
        }
        return ServerUnderTest.of(command);
    }
}

package niolab.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import niolab.epoll.Errno;
import org.junit.jupiter.api.Test;
import niolab.testkit.Capability;

class UringSupportTest {

    @Test
    void anOldJdkOrAnotherOsIsNamedInOneLine() {
        assertThat(UringSupport.platformReason(17, "Linux", 8))
                .isEqualTo("io_uring through FFM needs JDK 22 or newer (this JVM is 17)");
        assertThat(UringSupport.platformReason(25, "Mac OS X", 8)).isEqualTo("io_uring is Linux-only (this OS is Mac OS X)");
        assertThat(UringSupport.platformReason(25, "Linux", 8)).isNull();
    }

    @Test
    void theDisablingSysctlIsReadAsTheKernelReadsIt() {
        assertThat(UringSupport.sysctlReason(0, -1, false, false)).isNull();
        assertThat(UringSupport.sysctlReason(2, -1, true, true)).as("2 stops even root")
                .isEqualTo("io_uring is disabled on this host (sysctl kernel.io_uring_disabled=2)");
        assertThat(UringSupport.sysctlReason(1, 1234, false, false))
                .isEqualTo("io_uring is limited to group 1234 here (sysctl kernel.io_uring_disabled=1) and this process is not in it");
        assertThat(UringSupport.sysctlReason(1, -1, false, false)).contains("CAP_SYS_ADMIN");
        assertThat(UringSupport.sysctlReason(1, 1234, true, false)).as("a member of the group").isNull();
        assertThat(UringSupport.sysctlReason(1, -1, false, true)).as("CAP_SYS_ADMIN").isNull();
    }

    @Test
    void setupFailuresNameTheirCause() {
        assertThat(UringSupport.setupReason(Errno.ENOSYS)).startsWith("this kernel has no io_uring");
        assertThat(UringSupport.setupReason(Errno.EPERM)).contains("EPERM").contains("io_uring_disabled").contains("seccomp");
        assertThat(UringSupport.setupReason(Errno.ENOMEM)).contains("ulimit -l");
        assertThat(UringSupport.setupReason(Errno.EFAULT)).isEqualTo("io_uring_setup failed: EFAULT (Bad address)");
    }

    @Test
    void theReasonIsNullOrOneLine() {
        String reason = UringSupport.check();
        if (reason != null) {
            assertThat(reason).doesNotContain("\n").isNotBlank();
            assertThatThrownBy(UringSupport::capabilities).hasMessage(reason);
        }
    }

    @Test
    void capabilitiesComeFromARingThatWorked() {
        Capability.IO_URING.assume();
        UringCapabilities caps = UringSupport.capabilities();

        assertThat(Arrays.stream(UringSupport.SETUP_PREFERENCE).boxed()).contains(caps.setupFlags());
        assertThat(caps.features() & IoUringConstants.IORING_FEAT_EXT_ARG).isNotZero();
        assertThat(caps.probe().supports(IoUringConstants.IORING_OP_NOP)).isTrue();
        assertThat(caps.probe().supports(IoUringConstants.IORING_OP_RECV)).isTrue();
        assertThat(caps.probe().supports(caps.probe().lastOp() + 1)).isFalse();
        assertThat(caps.describe()).doesNotContain("\n").contains("setup ").contains("multishot recv ");
        System.out.println(caps.describe());
    }

    @Test
    void userDataCarriesOpGenerationAndFd() {
        long userData = UserData.of(3, 0x123456, 1_000_000);
        assertThat(UserData.op(userData)).isEqualTo(3);
        assertThat(UserData.generation(userData)).isEqualTo(0x123456);
        assertThat(UserData.fd(userData)).isEqualTo(1_000_000);
        assertThat(UserData.fd(UserData.of(255, 0xFFFFFF, -1))).as("fd -1 (no fd)").isEqualTo(-1);
        assertThat(UserData.op(UserData.of(255, 0xFFFFFF, -1))).isEqualTo(255);
        assertThat(UserData.generation(UserData.of(1, 0x1_000_001, 5))).as("generation wraps at 2^24").isEqualTo(1);
    }
}

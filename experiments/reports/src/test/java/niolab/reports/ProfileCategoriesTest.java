package niolab.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import niolab.reports.ProfileCategories.Category;
import org.junit.jupiter.api.Test;

/** The rules on small collapsed-stack fixtures: each stack lands in the category its frames say, and the counts add up. */
class ProfileCategoriesTest {
    static Path fixture(String name) throws URISyntaxException {
        return Paths.get(ProfileCategoriesTest.class.getResource("/profile/" + name).toURI());
    }

    @Test
    void ltFixtureIsSplitByTheRules() throws Exception {
        CollapsedProfile p = CollapsedProfile.read(fixture("fixture-lt-keepalive.collapsed"));
        assertThat(p.samples()).isEqualTo(100);
        assertThat(p.samples(Category.EPOLL)).isEqualTo(10);
        assertThat(p.samples(Category.HTTP_PARSER)).isEqualTo(20);
        assertThat(p.samples(Category.LOOP)).isEqualTo(5);
        // 30 in tcp_sendmsg, 3 in the syscall's entry under __GI_write
        assertThat(p.samples(Category.TCP_SEND)).isEqualTo(33);
        assertThat(p.samples(Category.TCP_RECEIVE)).isEqualTo(15);
        assertThat(p.samples(Category.CROSSING)).isEqualTo(4);
        assertThat(p.samples(Category.JDK_NIO)).isEqualTo(6);
        assertThat(p.samples(Category.KERNEL_OTHER)).isZero();
        assertThat(p.samples(Category.JIT)).isEqualTo(4);
        assertThat(p.samples(Category.GC)).isEqualTo(2);
        assertThat(p.samples(Category.OTHER)).isEqualTo(1);
        assertThat(p.share(Category.TCP_SEND)).isEqualTo(0.33);
    }

    @Test
    void vtParkingAndItsCarriersFutexesAreTheScheduler() throws Exception {
        CollapsedProfile p = CollapsedProfile.read(fixture("fixture-vt-keepalive.collapsed"));
        assertThat(p.samples()).isEqualTo(42);
        assertThat(p.samples(Category.VT_SCHEDULER)).isEqualTo(24);
        assertThat(p.samples(Category.EPOLL)).isEqualTo(5);
        assertThat(p.samples(Category.HTTP_PARSER)).isEqualTo(3);
        assertThat(p.samples(Category.TCP_SEND)).isEqualTo(10);
    }

    @Test
    void theKernelCallDecidesNotTheFunctionSampled() {
        // a send on loopback runs the receiver's TCP input and wakes its epoll: still the send
        assertThat(ProfileCategories.classify("a/B.c;__GI_write;__x64_sys_write_[k];tcp_sendmsg_[k];tcp_v4_rcv_[k];ep_poll_callback_[k]"))
                .isEqualTo(Category.TCP_SEND);
        // io_uring submitting a send inline: the send
        assertThat(ProfileCategories.classify("x;__x64_sys_io_uring_enter_[k];io_submit_sqes_[k];io_issue_sqe_[k];tcp_sendmsg_[k]"))
                .isEqualTo(Category.TCP_SEND);
        assertThat(ProfileCategories.classify("x;__x64_sys_io_uring_enter_[k];io_cqring_wait_[k];schedule_[k]")).isEqualTo(Category.IO_URING);
        assertThat(ProfileCategories.classify("niolab/server/lt/LtLoop.accept;sun/nio/ch/Net.accept;accept4;__x64_sys_accept4_[k];do_accept_[k]"))
                .isEqualTo(Category.SOCKET_LIFECYCLE);
    }

    @Test
    void aSampleInASyscallsEntryOrItsWrapperIsChargedToThatCall() {
        assertThat(ProfileCategories.classify("sun/nio/ch/EPoll.wait;Java_sun_nio_ch_EPoll_wait;epoll_wait")).isEqualTo(Category.EPOLL);
        assertThat(ProfileCategories.classify("x;Java_sun_nio_ch_Net_shutdown;__GI_shutdown;entry_SYSCALL_64_after_hwframe_[k];do_syscall_64_[k];pvm_irq_enable_[k]"))
                .isEqualTo(Category.SOCKET_LIFECYCLE);
        assertThat(ProfileCategories.classify("x;Java_sun_nio_ch_IOUtil_configureBlocking;__GI___libc_fcntl64")).isEqualTo(Category.SOCKET_LIFECYCLE);
        assertThat(ProfileCategories.classify("x;Java_sun_nio_ch_SocketDispatcher_read0")).isEqualTo(Category.CROSSING);
    }

    @Test
    void innermostJavaFrameDecidesOverTheLoopAroundIt() {
        assertThat(ProfileCategories.classify("niolab/server/et/EtLoop.run;niolab/epoll/JnaEpoll.wait;com/sun/jna/Native.invokeInt;ffi_call"))
                .isEqualTo(Category.CROSSING);
        assertThat(ProfileCategories.classify("java/lang/VirtualThread.run;niolab/server/vt/VirtualThreadServer.handle")).isEqualTo(Category.LOOP);
        assertThat(ProfileCategories.classify("io/netty/channel/nio/NioEventLoop.run")).isEqualTo(Category.LOOP);
        assertThat(ProfileCategories.classify("start_thread;something_unknown")).isEqualTo(Category.OTHER);
        assertThat(ProfileCategories.classify("start_thread;asm_exc_page_fault_[k];clear_page_erms_[k]")).isEqualTo(Category.KERNEL_OTHER);
    }

    @Test
    void aLineWithoutACountIsAnErrorNamingTheLine() {
        assertThatThrownBy(() -> CollapsedProfile.parse("a;b 3\na;b;c\n", "f.collapsed"))
                .hasMessageContaining("f.collapsed:2: not 'frame;frame COUNT'");
    }
}

package niolab.reports;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a CPU sample went, from its stack: the one place that says which frames belong to the
 * HTTP parser, the loop's own code, the native crossing, the kernel's epoll, io_uring and TCP
 * paths, the virtual-thread scheduler, GC and the JIT.
 *
 * <p>A stack's kernel frames (annotated {@code _[k]}) are classified first, as a whole: the
 * earliest kernel rule in {@link #RULES} that matches any of them decides, so a sample is charged
 * to the call that entered the kernel (a send on loopback also runs the receiver's TCP input and
 * wakes its epoll, which is still the send's cost), never to the scheduler or softirq functions
 * it happened to be in. Failing that, the Java and native frames are read from the innermost
 * outwards and the first frame a rule matches decides (among rules matching the same frame, the
 * earlier). Innermost first because the outer frames are shared by everything: every vt stack
 * starts in {@code VirtualThread.run}, every lt stack in the loop; what a sample was doing is the
 * nearest frame that says so. A sample in a syscall's entry or exit, or in its libc wrapper, is
 * charged by the wrapper that made the call ({@link #SYSCALL_WRAPPERS}). A sample in the kernel that no rule
 * explains (a page fault, an interrupt, an unknown syscall) is {@link Category#KERNEL_OTHER}, unless it waits on
 * or wakes a futex: then it is charged to the code that parks or unparks. Anything else is
 * {@link Category#OTHER}.
 *
 * <pre>
 *   Category c = ProfileCategories.classify("...;niolab/server/lt/LtLoop.run;...;tcp_sendmsg_[k];copy_user_[k]");
 * </pre>
 */
public final class ProfileCategories {
    /** The categories, in the order of the report's tables and charts. */
    public enum Category {
        HTTP_PARSER("HTTP parser"),
        LOOP("the loop's own code"),
        JDK_NIO("JDK NIO (Selector, channels)"),
        CROSSING("native crossing (JNI, JNA, FFM)"),
        VT_SCHEDULER("vt scheduler, poller, park"),
        EPOLL("epoll syscalls"),
        IO_URING("io_uring syscalls"),
        TCP_SEND("kernel TCP send"),
        TCP_RECEIVE("kernel TCP receive"),
        SOCKET_LIFECYCLE("kernel accept, close, options"),
        KERNEL_OTHER("kernel, other"),
        GC("GC"),
        JIT("JIT"),
        OTHER("other");

        public final String label;

        Category(String label) {
            this.label = label;
        }
    }

    /** A rule for kernel frames ({@code kernel}) or for the others. */
    record Rule(Category category, Pattern frame, boolean kernel) {
    }

    /** The rules, matched against one frame (its {@code _[k]}-style annotation removed). */
    static final List<Rule> RULES = List.of(
            // Kernel, by the syscall or the TCP call that entered it
            kernel(Category.TCP_SEND, "^(tcp_sendmsg|tcp_sendmsg_locked|__x64_sys_(write|writev|sendto|sendmsg)|ksys_write|vfs_write|sock_write_iter|__sys_sendto|io_send.*)$"),
            kernel(Category.TCP_RECEIVE, "^(tcp_recvmsg|tcp_recvmsg_locked|__x64_sys_(read|readv|recvfrom|recvmsg)|ksys_read|vfs_read|sock_read_iter|__sys_recvfrom|io_recv.*)$"),
            kernel(Category.SOCKET_LIFECYCLE, "^(__x64_sys_(accept4?|close|shutdown|setsockopt|getsockopt|fcntl|socket|getsockname|getpeername|ioctl)"
                    + "|__sys_accept4|do_accept|inet_csk_accept|tcp_close|__fput|____fput|task_work_run)$"),
            kernel(Category.EPOLL, "^(__x64_sys_epoll_(wait|pwait|pwait2|ctl)|do_epoll_wait|do_epoll_ctl|ep_poll|ep_send_events)$"),
            kernel(Category.IO_URING, "^(__x64_sys_io_uring_enter|io_submit_sqes|io_cqring_wait|io_uring_.*|__io_.*|io_issue_sqe|io_task_work_.*|tctx_task_work)$"),
            // JVM threads
            rule(Category.GC, "^(G1[A-Za-z]*|GCTaskThread|PSScavenge|ParallelScavengeHeap|ZDriver|ZWorker|ShenandoahControlThread|CollectedHeap|MemAllocator|"
                    + "ObjAllocator|InstanceKlass::allocate_instance|VM_G1[A-Za-z]*|VM_GC[A-Za-z]*|SafepointSynchronize|OptoRuntime::new_[a-z_]*)(::.*)?$"),
            rule(Category.JIT, "^(CompileBroker|C2Compiler|Compile|Compilation|CompilationPolicy|ciEnv|ciMethod|Phase[A-Za-z]*|Matcher|Parse|GraphBuilder|LinearScan|"
                    + "CompiledMethod|nmethod|CodeCache)::.*$"),
            // Java: the protocol before the loop, the scheduler before the JDK's NIO (its poller lives in sun.nio.ch)
            rule(Category.HTTP_PARSER, "^(niolab/server/proto/HttpRequestParser\\..*|http_parse.*|http_parser.*)$"),
            rule(Category.VT_SCHEDULER, "^(java/lang/VirtualThread\\.(park|parkNanos|unpark|yieldContinuation|afterYield|submitRunContinuation|runContinuation|"
                    + "lazySubmitRunContinuation|externalSubmitRunContinuation|mount|unmount|switchToCarrierThread|switchToVirtualThread|parkOnCarrierThread).*"
                    + "|jdk/internal/vm/Continuation\\.(yield|yield0|doYield|run|mount|unmount|onPinned).*|java/util/concurrent/ForkJoin.*|java/util/concurrent/locks/LockSupport\\..*"
                    + "|sun/nio/ch/(Poller|DefaultPoller|EPollPoller).*|.*Poller\\..*|sun/nio/ch/NioSocketImpl\\.park.*|sun/nio/ch/SocketChannelImpl\\.park.*"
                    + "|sun/nio/ch/SelChImpl\\.park.*|jdk/internal/misc/Unsafe\\.park|freeze_internal|Freeze.*|thaw_internal|Thaw.*|Continuation::.*|StackChunk.*"
                    + "|stackChunkOopDesc::.*|ContinuationEntry::.*|Unsafe_Park|Unsafe_Unpark|Parker::.*)$"),
            rule(Category.CROSSING, "^(com/sun/jna/.*|ffi_call.*|ffi_prep.*|Java_com_sun_jna_.*|jdk/internal/foreign/.*|java/lang/invoke/.*|"
                    + "jdk/internal/misc/ScopedMemoryAccess.*|Java_sun_nio_ch_.*|Java_java_.*|JNI_.*|jni_.*|ThreadStateTransition.*|JavaThread::check_special_condition.*|"
                    + "__libc_(read|write|recv|send|recvfrom|sendto|close|accept4?)|__GI___(libc_)?(read|write|recv|send|close)|__(read|write|recv|send|close)(_nocancel)?|"
                    + "(read|write|recv|send|epoll_wait|epoll_pwait|epoll_ctl|accept4|close|syscall)|niolab/epoll/.*|niolab/uring/.*Native.*)$"),
            rule(Category.JDK_NIO, "^(sun/nio/ch/.*|java/nio/channels/.*|sun/nio/ch/IOUtil.*)$"),
            rule(Category.LOOP, "^(niolab/.*|io/netty/.*|main|serve|dispatch|on_readable|on_writable|on_acceptable|respond|echo|write_some|park|close_conn|wait_events)$"));

    /**
     * A sample taken in a syscall's entry or exit (on a virtual machine, many land on the
     * hypervisor's interrupt-enable there), or in the libc wrapper itself, names no kernel
     * function that says which call it was: the libc wrapper just outside the kernel does.
     */
    static final List<Rule> SYSCALL_WRAPPERS = List.of(
            rule(Category.TCP_SEND, "^(__GI___)?(__libc_)?(write|writev|send|sendto|sendmsg)(_nocancel)?$|^__GI_write$"),
            rule(Category.TCP_RECEIVE, "^(__GI___)?(__libc_)?(read|readv|recv|recvfrom|recvmsg)(_nocancel)?$|^__GI_read$"),
            rule(Category.EPOLL, "^(__GI_)?(epoll_wait|epoll_pwait|epoll_ctl)$"),
            rule(Category.SOCKET_LIFECYCLE, "^(__GI_|__GI___)?(__libc_)?(accept4?|close|shutdown|setsockopt|getsockopt|fcntl|fcntl64|getsockname|getpeername|socket)(_nocancel)?$"),
            rule(Category.IO_URING, "^io_uring_enter$"));

    private ProfileCategories() {
    }

    private static Rule rule(Category c, String regex) {
        return new Rule(c, Pattern.compile(regex), false);
    }

    private static Rule kernel(Category c, String regex) {
        return new Rule(c, Pattern.compile(regex), true);
    }

    /** The category of one stack: frames separated by {@code ;}, outermost first, as in the collapsed format. */
    public static Category classify(String stack) {
        String[] frames = stack.split(";");
        int kernelRule = RULES.size();
        for (String f : frames) {
            if (!f.endsWith("_[k]")) continue;
            String name = unannotated(f);
            for (int r = 0; r < kernelRule; r++) {
                if (RULES.get(r).kernel && RULES.get(r).frame.matcher(name).matches()) kernelRule = r;
            }
        }
        if (kernelRule < RULES.size()) return RULES.get(kernelRule).category;
        boolean inKernel = frames[frames.length - 1].endsWith("_[k]");
        int caller = frames.length - 1;
        while (caller >= 0 && frames[caller].endsWith("_[k]")) caller--;
        if (caller >= 0) {
            for (Rule r : SYSCALL_WRAPPERS) {
                if (r.frame.matcher(frames[caller]).matches()) return r.category;
            }
        }
        // a futex is a thread parking or waking one: charged to whoever parks (the vt scheduler, GC, JIT)
        if (inKernel && !stack.contains("futex")) return Category.KERNEL_OTHER;
        for (int i = frames.length - 1; i >= 0; i--) {
            if (frames[i].endsWith("_[k]")) continue;
            String name = unannotated(frames[i]);
            for (Rule r : RULES) {
                if (!r.kernel && r.frame.matcher(name).matches()) return r.category;
            }
        }
        return inKernel ? Category.KERNEL_OTHER : Category.OTHER;
    }

    /** A frame without async-profiler's type suffix ({@code _[k]} kernel, {@code _[j]} Java, {@code _[i]} inlined ...). */
    static String unannotated(String frame) {
        int n = frame.length();
        if (n > 4 && frame.charAt(n - 4) == '_' && frame.charAt(n - 3) == '[' && frame.charAt(n - 1) == ']') return frame.substring(0, n - 4);
        return frame;
    }
}

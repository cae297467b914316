package niolab.microbench;

import niolab.epoll.Bindings;
import niolab.epoll.Syscalls;
import org.openjdk.jmh.annotations.Fork;

/** FFM downcalls with no call made critical: the thread goes to native state and back on every call. */
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Dniolab.ffm.critical=false"})
public class FfmCosts extends SyscallCosts {
    @Override
    protected Syscalls binding() {
        return Bindings.ffm();
    }
}

package niolab.microbench;

import niolab.epoll.Bindings;
import niolab.epoll.Syscalls;

/** JNA direct mapping: static native methods, through the {@link Syscalls} interface as a loop calls them. */
public class JnaCosts extends SyscallCosts {
    @Override
    protected Syscalls binding() {
        return Bindings.jna();
    }
}

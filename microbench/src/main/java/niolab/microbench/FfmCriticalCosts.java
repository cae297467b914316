package niolab.microbench;

import niolab.epoll.Bindings;
import niolab.epoll.Syscalls;

/**
 * FFM as the lab binds it: {@code read} and {@code send} critical (they cannot block on a
 * non-blocking socket), {@code epoll_wait} not (it sleeps), so its figure repeats {@link FfmCosts}'s.
 */
public class FfmCriticalCosts extends SyscallCosts {
    @Override
    protected Syscalls binding() {
        return Bindings.ffm();
    }
}

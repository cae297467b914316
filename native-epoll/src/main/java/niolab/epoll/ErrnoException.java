package niolab.epoll;

import java.io.IOException;

/**
 * A native call failed outside a hot path: the message names the call and the errno, as in
 * {@code accept4: EMFILE (Too many open files)}. Hot paths test errno values instead.
 */
public final class ErrnoException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;

    public ErrnoException(String call, int errno) {
        this(call, errno, Bindings.jna());
    }

    /** {@code sys} gives the message of an errno that {@link Errno} does not name. */
    public ErrnoException(String call, int errno, Syscalls sys) {
        super(call + ": " + Errno.describe(errno, sys));
        this.call = call;
        this.errno = errno;
    }

    /** Throws for the errno of the call that just returned -1 on this thread, through {@code sys}. */
    public static ErrnoException last(Syscalls sys, String call) {
        return new ErrnoException(call, sys.errno(), sys);
    }

    /** Returns {@code result}, or throws naming {@code call} (made through {@code sys}) when it is negative (the failure value). */
    public static int check(Syscalls sys, String call, int result) throws ErrnoException {
        if (result < 0) throw last(sys, call);
        return result;
    }

    public String call() {
        return call;
    }

    public int errno() {
        return errno;
    }
}

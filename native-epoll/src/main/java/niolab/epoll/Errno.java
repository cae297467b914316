package niolab.epoll;

/**
 * The errno values the lab meets, named once, with their symbolic names and messages.
 *
 * <p>{@link #name} and {@link #message} return constant strings from tables built when this
 * class loads, so an error path can print them without allocating or loading a class (which,
 * after EMFILE, may itself need a descriptor the process does not have).
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EINVAL = 22;
    public static final int ENFILE = 23;
    public static final int EMFILE = 24;
    public static final int ENOSPC = 28;
    public static final int EPIPE = 32;
    public static final int ENOSYS = 38;
    public static final int ETIME = 62;
    public static final int EPROTO = 71;
    public static final int ENOTSOCK = 88;
    public static final int ENOPROTOOPT = 92;
    public static final int EOPNOTSUPP = 95;
    public static final int EAFNOSUPPORT = 97;
    public static final int EADDRINUSE = 98;
    public static final int EADDRNOTAVAIL = 99;
    public static final int ENETUNREACH = 101;
    public static final int ECONNABORTED = 103;
    public static final int ECONNRESET = 104;
    public static final int ENOBUFS = 105;
    public static final int ENOTCONN = 107;
    public static final int ETIMEDOUT = 110;
    public static final int ECONNREFUSED = 111;
    public static final int EHOSTUNREACH = 113;
    public static final int EALREADY = 114;
    public static final int EINPROGRESS = 115;
    public static final int ECANCELED = 125;

    private static final String[] NAMES = new String[128];
    private static final String[] MESSAGES = new String[128];

    static {
        name(EPERM, "EPERM", "Operation not permitted");
        name(ENOENT, "ENOENT", "No such file or directory");
        name(EINTR, "EINTR", "Interrupted system call");
        name(EIO, "EIO", "Input/output error");
        name(EBADF, "EBADF", "Bad file descriptor");
        name(EAGAIN, "EAGAIN", "Resource temporarily unavailable");
        name(ENOMEM, "ENOMEM", "Cannot allocate memory");
        name(EACCES, "EACCES", "Permission denied");
        name(EFAULT, "EFAULT", "Bad address");
        name(EBUSY, "EBUSY", "Device or resource busy");
        name(EINVAL, "EINVAL", "Invalid argument");
        name(ENFILE, "ENFILE", "Too many open files in system");
        name(EMFILE, "EMFILE", "Too many open files");
        name(ENOSPC, "ENOSPC", "No space left on device");
        name(EPIPE, "EPIPE", "Broken pipe");
        name(ENOSYS, "ENOSYS", "Function not implemented");
        name(ETIME, "ETIME", "Timer expired");
        name(EPROTO, "EPROTO", "Protocol error");
        name(ENOTSOCK, "ENOTSOCK", "Socket operation on non-socket");
        name(ENOPROTOOPT, "ENOPROTOOPT", "Protocol not available");
        name(EOPNOTSUPP, "EOPNOTSUPP", "Operation not supported");
        name(EAFNOSUPPORT, "EAFNOSUPPORT", "Address family not supported by protocol");
        name(EADDRINUSE, "EADDRINUSE", "Address already in use");
        name(EADDRNOTAVAIL, "EADDRNOTAVAIL", "Cannot assign requested address");
        name(ENETUNREACH, "ENETUNREACH", "Network is unreachable");
        name(ECONNABORTED, "ECONNABORTED", "Software caused connection abort");
        name(ECONNRESET, "ECONNRESET", "Connection reset by peer");
        name(ENOBUFS, "ENOBUFS", "No buffer space available");
        name(ENOTCONN, "ENOTCONN", "Transport endpoint is not connected");
        name(ETIMEDOUT, "ETIMEDOUT", "Connection timed out");
        name(ECONNREFUSED, "ECONNREFUSED", "Connection refused");
        name(EHOSTUNREACH, "EHOSTUNREACH", "No route to host");
        name(EALREADY, "EALREADY", "Operation already in progress");
        name(EINPROGRESS, "EINPROGRESS", "Operation now in progress");
        name(ECANCELED, "ECANCELED", "Operation canceled");
    }

    private Errno() {
    }

    private static void name(int errno, String name, String message) {
        NAMES[errno] = name;
        MESSAGES[errno] = message;
    }

    /** {@code EMFILE}; {@code "errno"} for a value not named here. */
    public static String name(int errno) {
        String n = errno > 0 && errno < NAMES.length ? NAMES[errno] : null;
        return n != null ? n : "errno";
    }

    /** glibc's English message ({@code Too many open files}); {@code sys}'s strerror for a value not named here. */
    public static String message(int errno, Syscalls sys) {
        String m = errno > 0 && errno < MESSAGES.length ? MESSAGES[errno] : null;
        return m != null ? m : sys.strerror(errno);
    }

    /** {@code EMFILE (Too many open files)}, or {@code errno 200 (Unknown error 200)}, asking {@code sys} for the message of a value not named here. */
    public static String describe(int errno, Syscalls sys) {
        String n = name(errno);
        return (n.equals("errno") ? "errno " + errno : n) + " (" + message(errno, sys) + ")";
    }
}

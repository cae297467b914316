package niolab.server.uring;

import niolab.server.base.Server;
import niolab.server.base.ServerConfig;

/**
 * What the {@code uring} command needs from the JDK 22+ side (io_uring through FFM), reached
 * through this Java 17 interface so that the command itself loads on any JDK.
 */
public interface UringRuntime {
    /** Null when io_uring works here; otherwise one line naming the cause. */
    String unavailableReason();

    /** The most capable mode this kernel supports. */
    UringMode bestMode();

    /** Null when this kernel supports {@code mode}; otherwise one line saying what it lacks. */
    String unsupportedReason(UringMode mode);

    /** The server for this config in this mode, made but not bound. */
    Server newServer(ServerConfig config, UringMode mode);
}

package niolab.server.vt;

import niolab.server.base.Server;
import niolab.server.base.ServerConfig;

/**
 * What the {@code vt} command needs from the JDK 21+ side (virtual threads), reached through
 * this Java 17 interface so that the command itself loads on any JDK.
 */
public interface VtRuntime {
    /** The server for this config, made but not bound. */
    Server newServer(ServerConfig config);
}

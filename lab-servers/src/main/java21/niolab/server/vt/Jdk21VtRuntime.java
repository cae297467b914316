package niolab.server.vt;

import niolab.server.base.Protocol;
import niolab.server.base.Server;
import niolab.server.base.ServerConfig;

/** {@link VtRuntime} on JDK 21+: the servers. Loaded by name by {@link VtCommand}. */
public final class Jdk21VtRuntime implements VtRuntime {
    @Override
    public Server newServer(ServerConfig config) {
        return config.protocol() == Protocol.HTTP ? new VirtualThreadHttpServer(config) : new VirtualThreadEchoServer(config);
    }
}

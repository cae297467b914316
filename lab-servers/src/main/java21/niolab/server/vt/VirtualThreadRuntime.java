package niolab.server.vt;

import niolab.server.base.Protocol;
import niolab.server.base.Server;
import niolab.server.base.ServerOptions;

/** {@link VtRuntime} on JDK 21+: the servers. Loaded by name by {@link VtCommand}. */
public final class VirtualThreadRuntime implements VtRuntime {
    @Override
    public Server newServer(ServerOptions options) {
        return options.protocol == Protocol.HTTP ? new VirtualThreadHttpServer(options) : new VirtualThreadEchoServer(options);
    }
}

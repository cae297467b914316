package niolab.server.et;

import niolab.epoll.Bindings;
import niolab.epoll.Epoll;
import niolab.epoll.Syscalls;
import niolab.server.base.Protocol;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "et", mixinStandardHelpOptions = true,
        description = "Single-thread echo or HTTP /ping server calling epoll directly through JNA or FFM (edge-triggered).")
public final class EtCommand extends ServerCommand {
    @Mixin
    EtOptions own = new EtOptions();

    @Override
    public Object ownOptions() {
        return own;
    }

    @Override
    public int unusable(ServerConfig config) {
        if (!Epoll.isSupported()) {
            System.err.println("error: et needs Linux epoll");
            return 1;
        }
        try {
            Bindings.named(own.binding);
        } catch (UnsupportedOperationException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        return 0;
    }

    @Override
    public EdgeTriggeredServer newServer(ServerConfig config) {
        Syscalls sys = Bindings.named(own.binding); // one per loop: the FFM binding keeps its loop thread's errno slot
        return config.protocol() == Protocol.HTTP ? new EdgeTriggeredHttpServer(config, sys) : new EdgeTriggeredEchoServer(config, sys);
    }
}

package niolab.server.et;

import java.util.concurrent.Callable;
import niolab.epoll.Epoll;
import niolab.server.Mistakes;
import niolab.server.MultiLoopServer;
import niolab.server.Protocol;
import niolab.server.ServerFactory;
import niolab.server.ServerOptions;
import niolab.server.ServerRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "et", mixinStandardHelpOptions = true,
        description = "Single-thread echo or HTTP /ping server calling epoll directly through JNA (edge-triggered).")
public final class EtCommand implements Callable<Integer>, ServerFactory {
    @Mixin
    ServerOptions options;

    @Override
    public Integer call() {
        if (!Epoll.isSupported()) {
            System.err.println("error: et needs Linux epoll");
            return 1;
        }
        if (Mistakes.refused(options, "et")) return 2;
        return ServerRunner.run(options.loops > 1 ? new MultiLoopServer(this, options, System.out) : newServer(), options);
    }

    @Override
    public EdgeTriggeredServer newServer() {
        return options.protocol == Protocol.HTTP ? new EdgeTriggeredHttpServer(options) : new EdgeTriggeredEchoServer(options);
    }
}

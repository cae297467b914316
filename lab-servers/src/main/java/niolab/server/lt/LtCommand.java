package niolab.server.lt;

import java.util.concurrent.Callable;
import niolab.server.Protocol;
import niolab.server.ServerOptions;
import niolab.server.ServerRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "lt", mixinStandardHelpOptions = true,
        description = "Single-thread echo or HTTP /ping server on a java.nio Selector (epoll, level-triggered).")
public final class LtCommand implements Callable<Integer> {
    @Mixin
    ServerOptions options;

    @Override
    public Integer call() {
        LevelTriggeredServer server = options.protocol == Protocol.HTTP
                ? new LevelTriggeredHttpServer(options) : new LevelTriggeredEchoServer(options);
        return ServerRunner.run(server, options);
    }
}

package niolab.server.lt;

import java.util.concurrent.Callable;
import niolab.server.ServerOptions;
import niolab.server.ServerRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "lt", mixinStandardHelpOptions = true,
        description = "Single-thread echo server on a java.nio Selector (epoll, level-triggered).")
public final class LtCommand implements Callable<Integer> {
    @Mixin
    ServerOptions options;

    @Override
    public Integer call() {
        return ServerRunner.run(new LevelTriggeredEchoServer(options), options);
    }
}

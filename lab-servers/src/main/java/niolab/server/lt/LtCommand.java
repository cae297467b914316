package niolab.server.lt;

import java.util.concurrent.Callable;
import niolab.server.base.Mistakes;
import niolab.server.base.MultiLoopServer;
import niolab.server.base.Protocol;
import niolab.server.base.ServerFactory;
import niolab.server.base.ServerOptions;
import niolab.server.base.ServerRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "lt", mixinStandardHelpOptions = true,
        description = "Single-thread echo or HTTP /ping server on a java.nio Selector (epoll, level-triggered).")
public final class LtCommand implements Callable<Integer>, ServerFactory {
    @Mixin
    ServerOptions options;

    /** An mp worker's command, from options its master parsed: no parser at a worker's start. */
    public static LtCommand of(ServerOptions options) {
        LtCommand c = new LtCommand();
        c.options = options;
        return c;
    }

    @Override
    public LevelTriggeredServer newServer(ServerOptions options) {
        return options.protocol == Protocol.HTTP ? new LevelTriggeredHttpServer(options) : new LevelTriggeredEchoServer(options);
    }

    @Override
    public Integer call() {
        if (Mistakes.refused(options, "lt")) return 2;
        return ServerRunner.run(options.loops > 1 ? new MultiLoopServer(this, options, System.out) : newServer(options), options);
    }
}

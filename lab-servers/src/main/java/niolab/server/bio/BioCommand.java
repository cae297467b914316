package niolab.server.bio;

import java.util.concurrent.Callable;
import niolab.server.EventLoopServer;
import niolab.server.ServerFactory;
import niolab.server.ServerOptions;
import niolab.server.ServerRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "bio", mixinStandardHelpOptions = true,
        description = "Echo or HTTP /ping server with a platform thread per connection and blocking reads and writes.")
public final class BioCommand implements Callable<Integer>, ServerFactory {
    @Mixin
    ServerOptions options;

    @Override
    public Integer call() {
        if (options.loops > 1) {
            System.err.println("error: --loops is for the event loops (lt, et): bio already runs a thread per connection");
            return 2;
        }
        return ServerRunner.run(newServer(), options);
    }

    @Override
    public EventLoopServer newServer() {
        return new BlockingServer(options);
    }
}

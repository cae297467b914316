package niolab.server.bio;

import java.util.concurrent.Callable;
import niolab.server.base.Server;
import niolab.server.base.ServerFactory;
import niolab.server.base.ServerOptions;
import niolab.server.base.ServerRunner;
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
        return ServerRunner.run(newServer(options), options);
    }

    @Override
    public Server newServer(ServerOptions options) {
        return new BlockingServer(options);
    }
}

package niolab.server.bio;

import niolab.server.base.Server;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import picocli.CommandLine.Command;

@Command(name = "bio", mixinStandardHelpOptions = true,
        description = "Echo or HTTP /ping server with a platform thread per connection and blocking reads and writes.")
public final class BioCommand extends ServerCommand {
    @Override
    public Server newServer(ServerConfig config) {
        return new BlockingServer(config);
    }
}

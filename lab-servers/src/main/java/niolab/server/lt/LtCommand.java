package niolab.server.lt;

import niolab.server.base.Protocol;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import picocli.CommandLine.Command;

@Command(name = "lt", mixinStandardHelpOptions = true,
        description = "Single-thread echo or HTTP /ping server on a java.nio Selector (epoll, level-triggered).")
public final class LtCommand extends ServerCommand {
    @Override
    public LevelTriggeredServer newServer(ServerConfig config) {
        return config.protocol() == Protocol.HTTP ? new LevelTriggeredHttpServer(config) : new LevelTriggeredEchoServer(config);
    }
}

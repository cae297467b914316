package niolab.server.et;

import niolab.epoll.Bindings;
import niolab.epoll.Epoll;
import niolab.epoll.Syscalls;
import niolab.server.base.Protocol;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "et", mixinStandardHelpOptions = true,
        description = "Single-thread echo or HTTP /ping server calling epoll directly through JNA or FFM (edge-triggered).")
public final class EtCommand extends ServerCommand {
    @Option(names = "--binding", defaultValue = "jna",
            description = "How the loop calls libc: jna (JNA direct mapping) or ffm (the FFM API, JDK 22+) (default: ${DEFAULT-VALUE}).")
    String binding;

    @Spec
    CommandSpec spec;

    @Override
    protected int unusable(ServerConfig config) {
        if (!Epoll.isSupported()) {
            System.err.println("error: et needs Linux epoll");
            return 1;
        }
        try {
            Bindings.named(binding);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (UnsupportedOperationException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        return 0;
    }

    @Override
    public EdgeTriggeredServer newServer(ServerConfig config) {
        Syscalls sys = Bindings.named(binding); // one per loop: the FFM binding keeps its loop thread's errno slot
        return config.protocol() == Protocol.HTTP ? new EdgeTriggeredHttpServer(config, sys) : new EdgeTriggeredEchoServer(config, sys);
    }
}

package niolab.server.et;

import java.util.concurrent.Callable;
import niolab.epoll.Bindings;
import niolab.epoll.Epoll;
import niolab.epoll.Syscalls;
import niolab.server.base.Mistakes;
import niolab.server.base.MultiLoopServer;
import niolab.server.base.Protocol;
import niolab.server.base.ServerFactory;
import niolab.server.base.ServerOptions;
import niolab.server.base.ServerRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "et", mixinStandardHelpOptions = true,
        description = "Single-thread echo or HTTP /ping server calling epoll directly through JNA or FFM (edge-triggered).")
public final class EtCommand implements Callable<Integer>, ServerFactory {
    @Mixin
    ServerOptions options;

    @Option(names = "--binding", defaultValue = "jna",
            description = "How the loop calls libc: jna (JNA direct mapping) or ffm (the FFM API, JDK 22+) (default: ${DEFAULT-VALUE}).")
    String binding;

    @Spec
    CommandSpec spec;

    /** An mp worker's command, from options its master parsed: no parser at a worker's start. */
    public static EtCommand of(ServerOptions options, String binding) {
        EtCommand c = new EtCommand();
        c.options = options;
        c.binding = binding;
        return c;
    }

    @Override
    public Integer call() {
        if (!Epoll.isSupported()) {
            System.err.println("error: et needs Linux epoll");
            return 1;
        }
        if (Mistakes.refused(options, "et")) return 2;
        try {
            Bindings.named(binding);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (UnsupportedOperationException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        return ServerRunner.run(options.loops > 1 ? new MultiLoopServer(this, options, System.out) : newServer(options), options);
    }

    @Override
    public EdgeTriggeredServer newServer(ServerOptions options) {
        Syscalls sys = Bindings.named(binding); // one per loop: the FFM binding keeps its loop thread's errno slot
        return options.protocol == Protocol.HTTP ? new EdgeTriggeredHttpServer(options, sys) : new EdgeTriggeredEchoServer(options, sys);
    }
}

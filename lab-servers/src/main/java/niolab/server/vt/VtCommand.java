package niolab.server.vt;

import java.util.concurrent.Callable;
import niolab.server.base.NewerJdkCode;
import niolab.server.base.Server;
import niolab.server.base.ServerFactory;
import niolab.server.base.ServerOptions;
import niolab.server.base.ServerRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code lab-server vt}. This class is Java 17 like every entry point: it checks the JVM first
 * and reaches the virtual-thread server (compiled from {@code src/main/java21}, on JDK 21+ only)
 * through {@link VtRuntime}, loaded by name, so on JDK 17 it still loads and says in one line
 * why vt cannot run.
 */
@Command(name = "vt", mixinStandardHelpOptions = true,
        description = "Echo or HTTP /ping server with a virtual thread per connection and blocking reads and writes (JDK 21+).")
public final class VtCommand implements Callable<Integer>, ServerFactory {
    public static final NewerJdkCode<VtRuntime> RUNTIME =
            new NewerJdkCode<>("vt", 21, "niolab.server.vt.VirtualThreadRuntime", VtRuntime.class);

    @Mixin
    ServerOptions options;

    /** An mp worker's command, from options its master parsed: no parser at a worker's start. */
    public static VtCommand of(ServerOptions options) {
        VtCommand c = new VtCommand();
        c.options = options;
        return c;
    }

    @Override
    public Integer call() {
        String unavailable = RUNTIME.unavailable();
        if (unavailable == null && options.loops > 1) {
            unavailable = "--loops is for the event loops (lt, et): vt already runs a thread per connection";
        }
        if (unavailable != null) {
            System.err.println("error: " + unavailable);
            return 2;
        }
        return ServerRunner.run(newServer(options), options);
    }

    @Override
    public Server newServer(ServerOptions options) {
        String unavailable = RUNTIME.unavailable();
        if (unavailable != null) throw new IllegalStateException(unavailable);
        return RUNTIME.get().newServer(options);
    }
}

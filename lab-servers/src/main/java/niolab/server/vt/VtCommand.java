package niolab.server.vt;

import niolab.server.base.NewerJdkCode;
import niolab.server.base.Server;
import niolab.server.base.ServerCommand;
import niolab.server.base.ServerConfig;
import picocli.CommandLine.Command;

/**
 * {@code lab-server vt}. This class is Java 17 like every entry point: it checks the JVM first
 * and reaches the virtual-thread server (compiled from {@code src/main/java21}, on JDK 21+ only)
 * through {@link VtRuntime}, loaded by name, so on JDK 17 it still loads and says in one line
 * why vt cannot run.
 */
@Command(name = "vt", mixinStandardHelpOptions = true,
        description = "Echo or HTTP /ping server with a virtual thread per connection and blocking reads and writes (JDK 21+).")
public final class VtCommand extends ServerCommand {
    public static final NewerJdkCode<VtRuntime> RUNTIME =
            new NewerJdkCode<>("vt", 21, "niolab.server.vt.Jdk21VtRuntime", VtRuntime.class);

    @Override
    public int unusable(ServerConfig config) {
        String unavailable = RUNTIME.unavailable();
        if (unavailable != null) {
            System.err.println("error: " + unavailable);
            return 2;
        }
        return 0;
    }

    @Override
    public Server newServer(ServerConfig config) {
        String unavailable = RUNTIME.unavailable();
        if (unavailable != null) throw new IllegalStateException(unavailable);
        return RUNTIME.get().newServer(config);
    }
}

package niolab.server.vt;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.Callable;
import niolab.server.base.Server;
import niolab.server.base.ServerFactory;
import niolab.server.base.ServerOptions;
import niolab.server.base.ServerRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code lab-server vt}. This command is Java 17 and names the server only by a string: the
 * server is compiled from {@code src/main/java21}, only when the build runs on JDK 21 or newer,
 * so on JDK 17 this class still loads and says in one line why vt cannot run.
 */
@Command(name = "vt", mixinStandardHelpOptions = true,
        description = "Echo or HTTP /ping server with a virtual thread per connection and blocking reads and writes (JDK 21+).")
public final class VtCommand implements Callable<Integer>, ServerFactory {
    private static final int NEEDED_JDK = 21;
    private static final String SERVER_CLASS = "niolab.server.vt.VirtualThreadServer";

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
        String unavailable = unavailable();
        if (unavailable == null && options.loops > 1) {
            unavailable = "--loops is for the event loops (lt, et): vt already runs a thread per connection";
        }
        if (unavailable != null) {
            System.err.println("error: " + unavailable);
            return 2;
        }
        Server server;
        try {
            server = newServer();
        } catch (IllegalStateException e) {
            System.err.println("error: " + e.getMessage());
            return 1;
        }
        return ServerRunner.run(server, options);
    }

    /** Why this JVM cannot run vt (too old, or this build was compiled without it), or null if it can. */
    public static String unavailable() {
        int jdk = Runtime.version().feature();
        if (jdk < NEEDED_JDK) return "vt needs JDK " + NEEDED_JDK + " or newer (this JVM is " + jdk + ")";
        try {
            Class.forName(SERVER_CLASS, false, VtCommand.class.getClassLoader());
            return null;
        } catch (ClassNotFoundException e) {
            return "this build has no vt: it was compiled on a JDK older than " + NEEDED_JDK + "; rebuild on JDK "
                    + NEEDED_JDK + " or newer";
        }
    }

    @Override
    public Server newServer() {
        String unavailable = unavailable();
        if (unavailable != null) throw new IllegalStateException(unavailable);
        try {
            return (Server) Class.forName(SERVER_CLASS).getMethod("create", ServerOptions.class).invoke(null, options);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) throw (RuntimeException) cause;
            throw new IllegalStateException(ServerRunner.describe(cause), cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create the vt server: " + ServerRunner.describe(e), e);
        }
    }
}

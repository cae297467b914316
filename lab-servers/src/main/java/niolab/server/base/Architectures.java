package niolab.server.base;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import niolab.common.ServerCatalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The registry of {@code lab-server}'s architectures: each registers its command in
 * {@code META-INF/services/niolab.server.base.ServerCommand}, and lab-common's
 * {@link ServerCatalog} says what each is (its JDK, whether mp's workers run it, which shared
 * options act in it). The command line, mp's master and its workers all make their commands
 * here, so an architecture is added in one place, beside its code.
 *
 * <pre>
 *   CommandLine et = Architectures.commandLine("et");   // its options only: those the catalog says act in et
 *   List&lt;String&gt; all = Architectures.names();          // bio, lt, et, vt, uring, mp: the catalog's order
 * </pre>
 */
public final class Architectures {
    private Architectures() {
    }

    /** The names of the registered architectures, in the catalog's order. */
    public static List<String> names() {
        List<String> registered = new ArrayList<>();
        for (ServiceLoader.Provider<ServerCommand> p : ServiceLoader.load(ServerCommand.class).stream().toList()) {
            registered.add(nameOf(p));
        }
        List<String> names = new ArrayList<>();
        for (String arch : ServerCatalog.architectures()) {
            if (registered.contains(arch)) names.add(arch);
        }
        return names;
    }

    /** A new command of {@code arch}, not yet parsed into; null if no architecture has that name. */
    public static ServerCommand newCommand(String arch) {
        ServiceLoader.Provider<ServerCommand> p = provider(arch);
        return p == null ? null : p.get();
    }

    /** {@code arch}'s command as a command line, its options pruned to those that act in it; null if there is none. */
    public static CommandLine commandLine(String arch) {
        ServerCommand command = newCommand(arch);
        if (command == null) return null;
        CommandLine cl = new CommandLine(command);
        command.configure(cl);
        return cl;
    }

    /**
     * The provider of {@code arch}'s command: its type is read without making it, so that only
     * the command asked for is built (picocli reads a command's annotations by reflection, and
     * the others would cost every start, an mp pool's workers' too, for nothing).
     */
    private static ServiceLoader.Provider<ServerCommand> provider(String arch) {
        for (ServiceLoader.Provider<ServerCommand> p : ServiceLoader.load(ServerCommand.class).stream().toList()) {
            if (nameOf(p).equals(arch)) return p;
        }
        return null;
    }

    private static String nameOf(ServiceLoader.Provider<ServerCommand> p) {
        return p.type().getAnnotation(Command.class).name();
    }
}

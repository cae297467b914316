package niolab.server;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import niolab.common.ServerCatalog;
import niolab.server.base.Architectures;
import niolab.server.base.ServerCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lab-server catalog}: lab-common's {@link ServerCatalog} as TSV, for the shell (scripts/lib.sh
 * reads it), each server's options read from its command's own model, as its parser takes them.
 *
 * <pre>
 *   lab-server catalog                        # name command arch min_jdk mp_worker netty_peer label http_only options
 *   lab-server catalog --selection http       # lt et mp netty-nio netty-epoll netty-uring netty-http
 *   lab-server catalog --selections           # every selection, a line each: its name, a tab, its servers
 * </pre>
 */
@Command(name = CatalogCommand.NAME, mixinStandardHelpOptions = true,
        description = {"Every server the lab names, one a line, as TSV: its name, its command line after 'lab-server'"
                + " ({n}: its count), its architecture, the oldest JDK it runs on, whether mp's workers run it, its"
                + " Netty peer, its label in reports, whether it speaks only HTTP, and the options it takes."})
public final class CatalogCommand implements Callable<Integer> {
    static final String NAME = "catalog";
    static final String HEADER = "name\tcommand\tarch\tmin_jdk\tmp_worker\tnetty_peer\tlabel\thttp_only\toptions";

    @Option(names = "--selection", paramLabel = "NAME",
            description = "Print only the names of a selection, in its order, on one line: what a script runs when not told otherwise.")
    String selection;

    @Option(names = "--selections", description = "Print every selection, a line each: its name, a tab, its servers.")
    boolean selections;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (selection != null) {
            try {
                out.println(String.join(" ", ServerCatalog.selection(selection)));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            out.flush();
            return 0;
        }
        if (selections) {
            for (String name : ServerCatalog.selections()) out.println(name + "\t" + String.join(" ", ServerCatalog.selection(name)));
            out.flush();
            return 0;
        }
        out.println(HEADER);
        for (ServerCatalog.Server s : ServerCatalog.servers()) {
            out.println(String.join("\t", s.name(), s.command(), s.arch(), Integer.toString(s.minJdk()), Boolean.toString(s.mpWorker()),
                    s.nettyPeer().isEmpty() ? "-" : s.nettyPeer(), s.label(), Boolean.toString(s.httpOnly()), String.join(" ", options(s))));
        }
        out.flush();
        return 0;
    }

    /** The long names of the options {@code s}'s command takes (help and version aside); none known for a server outside lab-server. */
    static List<String> options(ServerCatalog.Server s) {
        List<String> names = new ArrayList<>();
        CommandLine cl = s.labServer() ? Architectures.commandLine(s.arch()) : null;
        if (cl == null) return List.of("-");
        ServerCommand command = cl.getCommand();
        for (OptionSpec o : cl.getCommandSpec().options()) {
            if (!o.hidden() && !o.usageHelp() && !o.versionHelp() && command.takes(o)) names.add(o.longestName());
        }
        return names;
    }
}

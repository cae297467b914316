package niolab.server.mp;

import java.lang.management.ManagementFactory;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import niolab.server.base.Arch;

/**
 * The command line of a worker: this very JVM again (same java binary, same classpath, the JVM
 * options the master was given, e.g. {@code -Xmx} or an AOT cache), running {@link WorkerMain}
 * with the server options the user gave the master, then what the master decides: the literal
 * address, the shared port, SO_REUSEPORT, and a stop when the master goes.
 *
 * <pre>
 *   java ... niolab.server.mp.WorkerMain lt --protocol http --work-ns 5000 --host 127.0.0.1 --port 9988 --reuse-port --exit-on-stdin-eof
 * </pre>
 */
final class WorkerCommand {
    private static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /** The options a worker is given by the master alone, never passed on from the user's. */
    static final Set<String> MASTER_DECIDES = Set.of("--host", "--port", "--reuse-port", "--exit-on-stdin-eof");

    private final List<String> jvm;
    private final Arch arch;
    private final String host;
    private final List<String> args;

    /**
     * @param host a literal address, resolved once by the master: every worker then binds the
     *             same address, so the same socket family, and they share one SO_REUSEPORT group
     *             (a name such as {@code localhost} could otherwise resolve differently, and an
     *             IPv4 and an IPv6 listener on one port do not share the load: one of them gets it all)
     */
    WorkerCommand(Arch arch, String host, List<String> args) {
        this.jvm = thisJvm();
        this.arch = arch;
        this.host = host;
        this.args = List.copyOf(args);
    }

    List<String> forPort(int port) {
        List<String> cmd = new ArrayList<>(jvm);
        cmd.addAll(argv(arch, args, host, port));
        return cmd;
    }

    /** What {@link WorkerMain} is given, from the architecture on: the user's options, then the master's. */
    static List<String> argv(Arch arch, List<String> args, String host, int port) {
        List<String> argv = new ArrayList<>();
        argv.add(arch.label);
        argv.addAll(args);
        // the pool shares the port, and no worker outlives its master
        argv.addAll(List.of("--host", host, "--port", Integer.toString(port), "--reuse-port", "--exit-on-stdin-eof"));
        return argv;
    }
    /** The launcher options are already among the JVM's input arguments: passing them twice would print "Picked up" twice. */
    static void dropLauncherEnvironment(Map<String, String> env) {
        env.remove("JAVA_TOOL_OPTIONS");
        env.remove("JDK_JAVA_OPTIONS");
    }

    private static List<String> thisJvm() {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command()
                .orElse(Paths.get(System.getProperty("java.home"), "bin", "java").toString()));
        List<String> masterArgs = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (String arg : masterArgs) {
            // N workers cannot all listen on the master's debugger port.
            if (arg.startsWith("-agentlib:jdwp") || arg.startsWith("-Xrunjdwp")) continue;
            cmd.add(arg);
        }
        // An et worker loads JNA, whatever the master was started with: JDK 24+ warns on every
        // start unless native access is granted (JEP 472), a later JDK will refuse; 17 accepts it.
        if (!masterArgs.contains(NATIVE_ACCESS)) cmd.add(NATIVE_ACCESS);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(WorkerMain.class.getName());
        return cmd;
    }
}

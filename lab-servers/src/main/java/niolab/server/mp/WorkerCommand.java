package niolab.server.mp;

import java.lang.management.ManagementFactory;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import niolab.server.base.ServerOptions;

/**
 * The command line of a worker: this very JVM again (same java binary, same classpath, the JVM
 * options the master was given, e.g. {@code -Xmx} or an AOT cache), running {@link WorkerMain}
 * with the master's parsed options on the shared port.
 */
final class WorkerCommand {
    private static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    private final List<String> jvm;
    private final String arch;
    private final String host;
    private final ServerOptions options;
    private final String binding;

    /**
     * @param host a literal address, resolved once by the master: every worker then binds the
     *             same address, so the same socket family, and they share one SO_REUSEPORT group
     *             (a name such as {@code localhost} could otherwise resolve differently, and an
     *             IPv4 and an IPv6 listener on one port do not share the load: one of them gets it all)
     */
    WorkerCommand(String arch, String host, ServerOptions options, String binding) {
        this.jvm = thisJvm();
        this.arch = arch;
        this.host = host;
        this.options = options;
        this.binding = binding;
    }

    List<String> forPort(int port) {
        List<String> cmd = new ArrayList<>(jvm);
        cmd.addAll(WorkerMain.args(arch, options, binding, host, port));
        return cmd;
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

package niolab.server.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * How a contract suite starts the server under test, and what the suites need to know of it:
 * all a server says to join a suite ({@code ServerContractTest.serverUnderTest()}).
 *
 * <pre>{@code
 * ServerUnderTest.of("lt")
 * ServerUnderTest.of("mp", "--workers", "2").label("mp: 2 x lt").logPrefix("lt")
 * ServerUnderTest.of("c").launcher(options -> CReference.start(options.toArray(new String[0])))
 * }</pre>
 *
 * @param command            its command line as users begin it: {@code lt}, {@code mp --workers 2}, {@code netty-epoll}
 * @param label              how its ready line names it before the protocol: {@code lt}, {@code mp: 2 x lt}
 * @param protocol           what a start without {@code --protocol} speaks (netty-http: only http)
 * @param logPrefix          the name its log lines start with ({@code lt: accept failed}); mp's workers say theirs
 * @param bytesPerConnection what its loop may allocate per accepted connection (the JDK's channels do; et's slots do not)
 * @param lingers            whether it lingers after a closing answer, as every server of the lab does (a peer may not)
 * @param launcher           how it is started with options after the command; null: as a lab-server child JVM
 */
public record ServerUnderTest(List<String> command, String label, String protocol, String logPrefix,
                              long bytesPerConnection, boolean lingers, Launcher launcher) {
    /** Starts a server that is not {@code lab-server}'s child JVM (the C reference). */
    public interface Launcher {
        ServerProcess start(List<String> options) throws Exception;
    }

    public ServerUnderTest {
        command = List.copyOf(command);
    }

    /** A lab-server command, named by its first word in its ready line and its log. */
    public static ServerUnderTest of(String... command) {
        return new ServerUnderTest(List.of(command), command[0], "echo", command[0], 0, true, null);
    }

    public ServerUnderTest label(String label) {
        return new ServerUnderTest(command, label, protocol, logPrefix, bytesPerConnection, lingers, launcher);
    }

    public ServerUnderTest protocol(String protocol) {
        return new ServerUnderTest(command, label, protocol, logPrefix, bytesPerConnection, lingers, launcher);
    }

    public ServerUnderTest logPrefix(String logPrefix) {
        return new ServerUnderTest(command, label, protocol, logPrefix, bytesPerConnection, lingers, launcher);
    }

    public ServerUnderTest bytesPerConnection(long bytesPerConnection) {
        return new ServerUnderTest(command, label, protocol, logPrefix, bytesPerConnection, lingers, launcher);
    }

    public ServerUnderTest lingers(boolean lingers) {
        return new ServerUnderTest(command, label, protocol, logPrefix, bytesPerConnection, lingers, launcher);
    }

    public ServerUnderTest launcher(Launcher launcher) {
        return new ServerUnderTest(command, label, protocol, logPrefix, bytesPerConnection, lingers, launcher);
    }

    /** The name it is known by in test output: the command's first word. */
    public String name() {
        return command.get(0);
    }

    /** The value of {@code option} on the command line, e.g. {@code --backend-mode}; null if absent. */
    public String option(String option) {
        int i = command.indexOf(option);
        return i >= 0 && i + 1 < command.size() ? command.get(i + 1) : null;
    }

    /** The command followed by {@code options}. */
    public List<String> commandLine(List<String> options) {
        List<String> all = new ArrayList<>(command);
        all.addAll(options);
        return all;
    }

    /** Starts it on port 0 with {@code options} after the command, and waits until it is ready. */
    public ServerProcess start(List<String> options) throws Exception {
        if (launcher != null) return launcher.start(options);
        return ServerProcess.start(commandLine(options).toArray(new String[0]));
    }
}

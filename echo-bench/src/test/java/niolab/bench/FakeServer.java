package niolab.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A server for compare's command tests, started as a process: {@code FakeServer MODE PORT [TAG]}.
 * echo: echoes every byte on PORT; work-NS: the same after NS nanoseconds of busy work per read
 * (lab-server's --work-ns); exit: prints a line and exits with status 3 before listening;
 * mute: prints a line and never listens; quit: echoes, and at its {@link #QUIT_AFTER}th connection
 * prints a line and exits with status 3 (mid-run, whatever the machine's speed). TAG only marks the process, so a test can find it.
 * {@link #command} builds the command line (this JVM's java, the test class path).
 */
final class FakeServer {
    static final int EXIT_STATUS = 3;
    static final int QUIT_AFTER = 30;

    private FakeServer() {}

    /** A compare command for this server: {@code java -cp ... niolab.bench.FakeServer MODE {port} TAG}. */
    static String command(String mode, String tag) {
        String java = ProcessHandle.current().info().command().orElse("java");
        return "'" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx64m -cp '" + System.getProperty("java.class.path")
                + "' niolab.bench.FakeServer " + mode + " {port} " + tag;
    }

    /** The live processes whose command line holds {@code tag}. */
    static List<ProcessHandle> tagged(String tag) {
        List<ProcessHandle> found = new ArrayList<>();
        ProcessHandle.allProcesses().filter(h -> h.info().commandLine().map(c -> c.contains(tag)).orElse(false)).forEach(found::add);
        return found;
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String mode = args[0];
        int port = Integer.parseInt(args[1]);
        switch (mode) {
            case "exit" -> {
                System.out.println("fake: starting");
                System.out.println("fake: cannot start: a bad configuration");
                System.exit(EXIT_STATUS);
            }
            case "mute" -> {
                System.out.println("fake: never listening");
                Thread.sleep(120_000);
            }
            case "quit" -> serve(port, QUIT_AFTER, 0);
            default -> serve(port, Integer.MAX_VALUE, mode.startsWith("work-") ? Long.parseLong(mode.substring(5)) : 0);
        }
    }

    private static void serve(int port, int connections, long workNanos) throws IOException {
        try (ServerSocket listener = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            System.out.println("fake: listening on " + port);
            for (int accepted = 1; ; accepted++) {
                Socket s = listener.accept();
                if (accepted == connections) {
                    System.out.println("fake: quitting mid-run");
                    System.exit(EXIT_STATUS);
                }
                Thread t = new Thread(() -> echo(s, workNanos));
                t.setDaemon(true);
                t.start();
            }
        }
    }

    private static void echo(Socket s, long workNanos) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[65536];
            for (int n; (n = in.read(buf)) > 0; ) {
                // spin, not sleep: a sleep's granularity is tens of microseconds, longer than the work it would stand for
                for (long until = System.nanoTime() + workNanos; System.nanoTime() < until; ) Thread.onSpinWait();
                out.write(buf, 0, n);
            }
        } catch (IOException ignored) {
            // the client went away
        }
    }
}

import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Holds a TCP port the way most programs do, with a listener that does not set SO_REUSEPORT, so
 * that no later socket can bind it, with or without that option. Lab 4 needs one: Debian's
 * {@code nc -l} sets SO_REUSEPORT, and an mp pool would then join it on the port instead of
 * being refused.
 *
 * <pre>
 *   java labs/tools/HoldPort.java $PORT        # holds 127.0.0.1:$PORT for 300 s, or until Ctrl-C
 *   java labs/tools/HoldPort.java 0 60         # any free port, for 60 s: the first line says which
 * </pre>
 *
 * JDK only, run from source; exit 0 when its time is up, 1 if the port is taken, 2 for bad usage.
 */
public final class HoldPort {
    private HoldPort() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port;
        long seconds;
        try {
            if (args.length < 1 || args.length > 2) throw new NumberFormatException();
            port = Integer.parseInt(args[0]);
            seconds = args.length > 1 ? Long.parseLong(args[1]) : 300;
            if (port < 0 || port > 65535 || seconds < 1) throw new NumberFormatException();
        } catch (NumberFormatException e) {
            System.err.println("usage: java labs/tools/HoldPort.java PORT [SECONDS] (PORT 0 to 65535, 0 for any; SECONDS 300 unless given)");
            System.exit(2);
            return;
        }
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", port));
            System.out.println("holding 127.0.0.1:" + s.getLocalPort() + " without SO_REUSEPORT for " + seconds + " s (Ctrl-C ends it)");
            Thread.sleep(seconds * 1000);
        } catch (BindException e) {
            System.err.println("error: 127.0.0.1:" + port + " is already in use");
            System.exit(1);
        } catch (java.io.IOException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
        }
    }
}

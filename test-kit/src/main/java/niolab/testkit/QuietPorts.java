package niolab.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for tests that kill a server and then check that its port is free: drawn below the
 * kernel's ephemeral range (32768 up), so that no other test's bind to port 0 takes the port
 * between the kill and the check.
 */
public final class QuietPorts {
    private QuietPorts() {}

    /** A port in 20000-31999 that nothing listens on now. */
    public static int free() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int i = 0; i < 100; i++) {
            int port = r.nextInt(20_000, 32_000);
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // another one
            }
        }
        throw new AssertionError("no free port in 20000-32000");
    }

    /** Whether something on 127.0.0.1 accepts a connection on {@code port} within 500 ms. */
    public static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}

package niolab.server.mp;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * {@code net.ipv4.tcp_migrate_req} (Linux 5.14+): when a listener of an SO_REUSEPORT group
 * closes, the connections in its accept queue (handshake done, not yet accepted) move to
 * another listener of the group instead of being reset.
 *
 * <p>{@code --migrate} only checks and reports it. Decision: the master never writes the sysctl
 * and never refuses to start when it is off. It is a system-wide setting (every SO_REUSEPORT
 * server on the host changes behaviour) that needs root, so a lab server must not flip it
 * behind the user's back; and refusing to start would block the very experiment that compares
 * stopping a worker with and without it. One line tells the user the command instead.
 */
final class MigrateSysctl {
    static final Path PATH = Paths.get("/proc/sys/net/ipv4/tcp_migrate_req");
    static final String ENABLE = "sysctl -w net.ipv4.tcp_migrate_req=1";

    private MigrateSysctl() {
    }

    /** Prints what a closing worker's queued connections will go through; never fails. */
    static void report(PrintStream out, PrintStream err) {
        String value;
        try {
            value = Files.readString(PATH, StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException e) {
            err.println("mp: --migrate: this kernel has no net.ipv4.tcp_migrate_req (it needs Linux 5.14+):"
                    + " connections queued on a closing worker will be reset");
            return;
        } catch (IOException e) {
            err.println("mp: --migrate: cannot read " + PATH + " (" + e.getMessage() + ")");
            return;
        }
        if ("0".equals(value)) {
            err.println("mp: --migrate: net.ipv4.tcp_migrate_req is 0, so connections queued on a closing worker"
                    + " will be reset; to migrate them, run as root (system-wide): " + ENABLE);
        } else {
            out.println("mp: net.ipv4.tcp_migrate_req=" + value
                    + ": connections queued on a closing worker move to the surviving workers");
        }
    }
}

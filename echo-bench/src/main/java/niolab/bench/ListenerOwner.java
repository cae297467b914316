package niolab.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import niolab.common.ProcStat;

/**
 * Whether the socket listening on a port belongs to a given process tree, from /proc: the inodes
 * of the TCP sockets in LISTEN on that port (/proc/net/tcp and tcp6), against the sockets the
 * processes hold open (/proc/PID/fd). compare picks a free port, releases it and hands it to a
 * command; until that command listens, any other program may bind the same port, and a probe
 * that merely connects would then measure the wrong server.
 */
final class ListenerOwner {
    private static final String LISTEN = "0A";

    private ListenerOwner() {}

    /**
     * True when {@code pid} or one of its descendants holds a socket listening on {@code port}; also
     * true when this cannot be told (no /proc, or another user's descriptors), so that the check
     * never refuses a server it cannot see.
     */
    static boolean owns(long pid, int port) {
        Set<String> listening = listeningInodes(port);
        if (listening == null) return true;
        if (listening.isEmpty()) return false;
        List<Long> tree = new ArrayList<>();
        tree.add(pid);
        tree.addAll(ProcStat.descendants(pid));
        for (long p : tree) {
            try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(p), "fd"))) {
                for (Path fd : fds) {
                    String target;
                    try {
                        target = Files.readSymbolicLink(fd).toString();
                    } catch (IOException closedMeanwhile) {
                        continue;
                    }
                    if (target.startsWith("socket:[") && listening.contains(target.substring(8, target.length() - 1))) return true;
                }
            } catch (IOException e) {
                if (Files.exists(Path.of("/proc", Long.toString(p)))) return true; // not ours to read: cannot tell
            }
        }
        return false;
    }

    /** The inodes of the sockets in LISTEN on {@code port}, IPv4 and IPv6; null when /proc/net cannot be read. */
    static Set<String> listeningInodes(int port) {
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        Set<String> inodes = new HashSet<>();
        boolean read = false;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(table));
            } catch (IOException e) {
                continue;
            }
            read = true;
            for (int i = 1; i < lines.size(); i++) {
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                String[] f = lines.get(i).trim().split("\\s+");
                if (f.length > 9 && f[1].endsWith(hexPort) && f[3].equals(LISTEN)) inodes.add(f[9]);
            }
        }
        return read ? inodes : null;
    }
}

package niolab.common;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one text form of a server's ready line, printed once it listens: what the scripts, the
 * tests and the mp master wait for, and where they learn the port a {@code --port 0} server
 * got. Every lab server and Netty peer prints it through {@link #format}; the C reference
 * server prints the same bytes; {@code scripts/lib.sh}'s {@code ready_line} finds it in a log.
 *
 * <pre>
 *   listening on 127.0.0.1:9988 (lt, echo)
 *   listening on [::1]:41234 (mp: 4 x et, http, mistake: read-once)
 *   ReadyLine r = ReadyLine.parse(line);   // null for any other line; r.host() is "::1", without brackets
 * </pre>
 *
 * @param host  the bound address as a literal, IPv6 without its brackets
 * @param port  the bound port
 * @param label what the server is, in words: its architecture, protocol and anything that makes it differ
 */
public record ReadyLine(String host, int port, String label) {
    public static final String PREFIX = "listening on ";
    private static final Pattern LINE = Pattern.compile("^listening on (\\[[^\\]]+\\]|[^\\s\\[\\]]+):(\\d+) \\((.*)\\)$");

    /** {@code listening on HOST:PORT (LABEL)}, an IPv6 host in brackets as users type it. */
    public static String format(String host, int port, String label) {
        return PREFIX + hostPort(host, port) + " (" + label + ")";
    }

    /** This line as {@link #format} writes it. */
    @Override
    public String toString() {
        return format(host, port, label);
    }

    /** The ready line {@code line} is, or null if it is none (a worker's {@code [w1]} tag makes it none). */
    public static ReadyLine parse(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) return null;
        String host = m.group(1).startsWith("[") ? m.group(1).substring(1, m.group(1).length() - 1) : m.group(1);
        try {
            return new ReadyLine(host, Integer.parseInt(m.group(2)), m.group(3));
        } catch (NumberFormatException tooLong) {
            return null;
        }
    }

    /** {@code 127.0.0.1:9988}, or {@code [::1]:9988} for IPv6, as users type it. */
    public static String hostPort(String host, int port) {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}

package niolab.bench;

import java.net.InetSocketAddress;

/**
 * One server of {@code echo-bench compare} as the load reaches it: {@code NAME=HOST:PORT[,pid=PID]}
 * as given, or the port and pid of a fresh process of a command ({@link ForkedServer#target()});
 * with a pid its CPU (the process, its threads and its descendants, from /proc) gives CPU per request.
 */
record CompareTarget(String name, String hostPort, InetSocketAddress address, long pid) {
    /** Thrown with the one line the user sees for a server that cannot be parsed. */
    static final class BadTarget extends IllegalArgumentException {
        BadTarget(String message) {
            super(message);
        }
    }

    /**
     * Whether the value after {@code NAME=} is a command to start rather than HOST:PORT[,pid=PID]:
     * one with a space or {@code {port}} in it, or without a ':'. A value with a ':' and no space is
     * read as HOST:PORT, so that a mistyped one is named instead of run.
     */
    static boolean isCommand(String value) {
        return value.contains(ForkedServer.PORT) || value.chars().anyMatch(Character::isWhitespace) || value.indexOf(':') < 0;
    }

    /** The name of {@code NAME=VALUE}, checked; a {@link BadTarget} otherwise. */
    static String name(String arg) {
        int eq = arg.indexOf('=');
        if (eq <= 0) throw new BadTarget("'" + arg + "' is not NAME=HOST:PORT[,pid=PID] or NAME='COMMAND ... {port}'");
        String name = arg.substring(0, eq);
        if (!name.matches("[A-Za-z0-9._+-]+")) throw new BadTarget("server name '" + name + "' may hold only letters, digits and . _ + -");
        return name;
    }

    static CompareTarget parse(String arg) {
        String name = name(arg);
        String rest = arg.substring(name.length() + 1);
        long pid = 0;
        int comma = rest.indexOf(',');
        if (comma >= 0) {
            String option = rest.substring(comma + 1);
            rest = rest.substring(0, comma);
            if (!option.matches("pid=[1-9][0-9]{0,9}")) throw new BadTarget("'" + option + "' in '" + arg + "' is not pid=PID");
            pid = Long.parseLong(option.substring(4));
        }
        int colon = rest.lastIndexOf(':');
        if (colon <= 0) throw new BadTarget("'" + rest + "' in '" + arg + "' is not HOST:PORT");
        String host = rest.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        int port;
        try {
            port = Integer.parseInt(rest.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new BadTarget("'" + rest.substring(colon + 1) + "' in '" + arg + "' is not a port");
        }
        if (port < 1 || port > 65535) throw new BadTarget("port " + port + " in '" + arg + "' is out of range");
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) throw new BadTarget("cannot resolve host '" + host + "' in '" + arg + "'");
        return new CompareTarget(name, rest, address, pid);
    }

    boolean hasPid() {
        return pid > 0;
    }

    /** Whether the pid, if one was given, still names a live process. */
    boolean pidAlive() {
        return !hasPid() || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * A running server given as HOST:PORT must accept a connection before the first round: one that
     * refuses it was never started, or its port is held by nothing (a typo, another port), and every
     * round of it would be a refusal that reads like a death.
     */
    void requireListening() throws ForkedServer.ServerFailed {
        try (java.net.Socket probe = new java.net.Socket()) {
            probe.connect(address, 2000);
        } catch (java.io.IOException e) {
            throw new ForkedServer.ServerFailed("server " + name + ": nothing accepts a connection on " + hostPort + " (" + e.getMessage()
                    + "): start it first, or give it as " + name + "='COMMAND ... {port}' for compare to start");
        }
    }
}

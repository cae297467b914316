package niolab.server.base;

import java.time.Duration;
import java.util.List;

/**
 * What a server is made from: the options of {@link ServerOptions} once parsed and checked,
 * immutable, so that every loop of {@code --loops N} and every class of a server reads the same
 * values. A server that needs other values derives a new config ({@link #withReusePort()},
 * {@link #withPort(int)}).
 *
 * @param arch     the architecture, or null for a server outside the lab's own (the Netty peers)
 * @param workNs   {@code --work-ns}: nanoseconds of busy work per request, 0 for none
 * @param mistakes {@code mistakeList} as final booleans, built once (every loop of --loops shares them)
 */
public record ServerConfig(
        Arch arch,
        String host,
        int port,
        int backlog,
        int bufferSize,
        int sndbuf,
        boolean reusePort,
        int loops,
        Protocol protocol,
        BackendConfig backend,
        Duration statsInterval,
        Duration idleTimeout,
        Duration lingerTime,
        long lingerBytes,
        List<Mistake> mistakeList,
        Mistakes mistakes,
        long workNs,
        boolean exitOnStdinEof) {

    /** This config with SO_REUSEPORT on: what each loop of {@code --loops N} binds with. */
    public ServerConfig withReusePort() {
        return new ServerConfig(arch, host, port, backlog, bufferSize, sndbuf, true, loops, protocol, backend,
                statsInterval, idleTimeout, lingerTime, lingerBytes, mistakeList, mistakes, workNs, exitOnStdinEof);
    }

    /** This config on {@code port}: the port the first of several listeners resolved from 0. */
    public ServerConfig withPort(int port) {
        return new ServerConfig(arch, host, port, backlog, bufferSize, sndbuf, reusePort, loops, protocol, backend,
                statsInterval, idleTimeout, lingerTime, lingerBytes, mistakeList, mistakes, workNs, exitOnStdinEof);
    }

    /** This config speaking {@code protocol}: netty-http's, which speaks nothing else. */
    public ServerConfig withProtocol(Protocol protocol) {
        return new ServerConfig(arch, host, port, backlog, bufferSize, sndbuf, reusePort, loops, protocol, backend,
                statsInterval, idleTimeout, lingerTime, lingerBytes, mistakeList, mistakes, workNs, exitOnStdinEof);
    }

    /**
     * What the ready line says in brackets of a server that calls itself {@code server}:
     * {@code lt, echo}, {@code et, 2 loops, http, backend loop, mistake: nagle, work-ns 5000}.
     */
    public String label(String server) {
        return server + ", " + protocol + (backend == null ? "" : ", " + backend.label()) + mistakes.label
                + (workNs == 0 ? "" : ", work-ns " + workNs);
    }
}

package niolab.server.base;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import niolab.common.Durations;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options every architecture shares; mixed into each subcommand. */
public final class ServerOptions {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    public String host;

    @Option(names = "--port", defaultValue = "9988", description = "Port to bind; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    public int port;

    @Option(names = "--backlog", defaultValue = "1024", description = "Listen backlog (default: ${DEFAULT-VALUE}).")
    public int backlog;

    @Option(names = "--buffer-size", defaultValue = "65536",
            description = "Read buffer bytes; also the most output a connection may have pending (vt: the most a connection's "
                    + "buffers grow to, from 4096) (default: ${DEFAULT-VALUE}).")
    public int bufferSize;

    @Option(names = "--sndbuf", paramLabel = "BYTES", defaultValue = "0",
            description = "lt and et: SO_SNDBUF of each connection (0, the default: the kernel's, autotuned). A small one "
                    + "makes large echoes end in partial writes on loopback too.")
    public int sndbuf;

    @Option(names = "--reuse-port", description = "Set SO_REUSEPORT so several processes can share the port (mp workers do).")
    public boolean reusePort;

    public int loops = 1;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--loops", defaultValue = "1",
            description = "Event loops in this JVM, each with its own SO_REUSEPORT listener on the port (lt, et) (default: ${DEFAULT-VALUE}).")
    void setLoops(int n) {
        if (n < 1 || n > 256) throw new ParameterException(spec.commandLine(), "--loops must be between 1 and 256, not " + n);
        loops = n;
    }

    @Option(names = "--protocol", defaultValue = "echo", converter = Protocol.Converter.class,
            description = "echo, or http (GET /ping answers {\"status\":\"ok\"}) (default: ${DEFAULT-VALUE}).")
    public Protocol protocol;

    /** {@code --backend redis://...} and its companions; null without {@code --backend}. */
    @ArgGroup(exclusive = false, heading = "%nBackend (GET /healthz makes two Redis GETs):%n")
    public BackendOptions backend;

    @Option(names = "--stats-interval", converter = Durations.class,
            description = "Also print the counters every interval, e.g. 5s.")
    public Duration statsInterval;

    @Option(names = "--idle-timeout", converter = Durations.class,
            description = "Close a connection that has neither sent nor taken any bytes for this long, e.g. 30s"
                    + " (slowloris); counted as idle_closes. Checked about once a second. Default: off.")
    public Duration idleTimeout;

    @Option(names = "--linger-time", converter = Durations.class, defaultValue = Linger.DEFAULT_TIME,
            description = "http: after a closing answer (400, 431, Connection: close, HTTP/1.0), the sending side is shut and"
                    + " what the client still sends is read and dropped for at most this long before the close (RFC 9112 9.6),"
                    + " so that a reset cannot destroy the answer; counted as linger_timeouts. 2s lets a client read its answer"
                    + " across a slow network and still frees a stuck connection soon (default: ${DEFAULT-VALUE}).")
    public Duration lingerTime = Durations.parse(Linger.DEFAULT_TIME);

    @Option(names = "--linger-bytes", defaultValue = Linger.DEFAULT_BYTES,
            description = "http: the most bytes read and dropped while lingering before the close; 1 MiB is more than any"
                    + " head a client sends before it reads, so only a client that never stops sending meets it"
                    + " (default: ${DEFAULT-VALUE}).")
    public long lingerBytes = Long.parseLong(Linger.DEFAULT_BYTES);

    @Option(names = "--mistake", paramLabel = "NAME", converter = Mistake.Converter.class,
            description = "Break the server on purpose, at one marked spot, the way real servers broke (repeatable; listed below).")
    public List<Mistake> mistakeList = new ArrayList<>();

    @Option(names = "--epoll-exclusive",
            description = "et --loops N --mistake herd: register the shared listener with EPOLLEXCLUSIVE (Linux 4.5+),"
                    + " so one loop wakes per connection: the kernel's fix for the herd, beside SO_REUSEPORT (the default).")
    public boolean epollExclusive;

    private Mistakes mistakes;

    /** Set by the mp master on its workers: stdin is a pipe from the master, and EOF means the master is gone. */
    @Option(names = "--exit-on-stdin-eof", hidden = true,
            description = "Stop gracefully when stdin reaches end of file (mp workers: no orphans if the master dies).")
    public boolean exitOnStdinEof;

    /** The mistakes as final booleans, built once (every loop of --loops shares them). */
    public Mistakes mistakes() {
        if (mistakes == null) mistakes = new Mistakes(mistakeList, epollExclusive);
        return mistakes;
    }

    /**
     * Checks what depends on several options, once all are parsed (the command line above,
     * {@code LabServer}, calls it before running any command): a bad combination is a bad flag, exit 2.
     */
    public void check() {
        if (backend == null) return;
        if (arch().equals("bio")) {
            throw new ParameterException(spec.commandLine(), "--backend is for lt, et, vt and mp (bio has none)");
        }
        if (protocol != Protocol.HTTP) {
            throw new ParameterException(spec.commandLine(), "--backend needs --protocol http (GET /healthz is what calls it)");
        }
        String problem = backend.problem(arch());
        if (problem != null) throw new ParameterException(spec.commandLine(), problem);
    }

    /** What the ready line says of the protocol: {@code http}, or {@code http, backend loop}. */
    public String protocolLabel() {
        return backend == null ? protocol.toString() : protocol + ", " + backend.label();
    }

    /** The architecture of options no command line parsed: an mp worker's (see WorkerMain). */
    private String unparsedArch;

    /** Options with no defaults yet, for {@code arch}: an mp worker sets each field from what its master parsed. */
    public static ServerOptions forWorker(String arch) {
        ServerOptions o = new ServerOptions();
        o.unparsedArch = arch;
        return o;
    }

    /** The subcommand these options were parsed for ({@code lt}, {@code et}...). */
    public String arch() {
        if (spec != null) return spec.name();
        return unparsedArch == null ? "server" : unparsedArch;
    }

    /** These options with SO_REUSEPORT on: what each loop of {@code --loops N} binds with. */
    public ServerOptions withReusePort() {
        ServerOptions o = copy();
        o.reusePort = true;
        return o;
    }

    /** These options on {@code port}: the port the first of several listeners resolved from 0. */
    public ServerOptions withPort(int port) {
        ServerOptions o = copy();
        o.port = port;
        return o;
    }

    /** Nothing writes options once parsed: a server that needs other values derives a copy (see {@link MultiLoopServer}). */
    private ServerOptions copy() {
        ServerOptions o = new ServerOptions();
        o.host = host;
        o.port = port;
        o.backlog = backlog;
        o.bufferSize = bufferSize;
        o.sndbuf = sndbuf;
        o.reusePort = reusePort;
        o.loops = loops;
        o.spec = spec;
        o.protocol = protocol;
        o.backend = backend;
        o.statsInterval = statsInterval;
        o.idleTimeout = idleTimeout;
        o.lingerTime = lingerTime;
        o.lingerBytes = lingerBytes;
        o.mistakeList = mistakeList;
        o.epollExclusive = epollExclusive;
        o.mistakes = mistakes();
        o.exitOnStdinEof = exitOnStdinEof;
        o.unparsedArch = unparsedArch;
        return o;
    }

    /** {@code 127.0.0.1:9988}, or {@code [::1]:9988} for IPv6, as users type it. */
    public static String hostPort(String host, int port) {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}

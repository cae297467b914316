package niolab.server.base;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import niolab.common.Durations;
import niolab.common.ServerCatalog;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The options every architecture shares, mixed into each subcommand; each is declared here once
 * and leaves as a value, the immutable {@link ServerConfig}:
 *
 * <pre>
 *   &#64;Mixin ServerOptions options;
 *   ServerConfig config = options.config();    // checked across options; a bad combination is a bad flag, exit 2
 *   List&lt;String&gt; again = options.asArgs(Set.of("--port"));  // the flags as the user gave them, but --port: mp's workers get these
 * </pre>
 */
public final class ServerOptions {
    /** A second of busy work per request is already a server that answers nothing in time. */
    private static final long MAX_WORK_NS = 1_000_000_000L;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", defaultValue = "9988", description = "Port to bind; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--backlog", defaultValue = "1024", description = "Listen backlog (default: ${DEFAULT-VALUE}).")
    private int backlog;

    @Option(names = "--buffer-size", defaultValue = "65536",
            description = "Read buffer bytes; also the most output a connection may have pending (vt: the most a connection's "
                    + "buffers grow to, from 4096) (default: ${DEFAULT-VALUE}).")
    private int bufferSize;

    @Option(names = "--sndbuf", paramLabel = "BYTES", defaultValue = "0",
            description = "SO_SNDBUF of each connection (0, the default: the kernel's, autotuned). A small one "
                    + "makes large echoes end in partial writes on loopback too.")
    private int sndbuf;

    @Option(names = "--reuse-port", description = "Set SO_REUSEPORT so several processes can share the port (mp workers do).")
    private boolean reusePort;

    private int loops = 1;

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--loops", defaultValue = "1",
            description = "Event loops in this JVM, each with its own SO_REUSEPORT listener on the port (mp: in each worker)"
                    + " (default: ${DEFAULT-VALUE}).")
    void setLoops(int n) {
        if (n < 1 || n > 256) throw new ParameterException(spec.commandLine(), "--loops must be between 1 and 256, not " + n);
        loops = n;
    }

    @Option(names = "--protocol", defaultValue = "echo", converter = Protocol.Converter.class,
            description = "echo, or http (GET /ping answers {\"status\":\"ok\"}) (default: ${DEFAULT-VALUE}).")
    private Protocol protocol;

    /** {@code --backend redis://...} and its companions; null without {@code --backend}. */
    @ArgGroup(exclusive = false, heading = "%nBackend (GET /healthz makes two Redis GETs):%n")
    private BackendOptions backend;

    @Option(names = "--stats-interval", converter = Durations.class,
            description = "Also print the counters every interval, e.g. 5s.")
    private Duration statsInterval;

    @Option(names = "--idle-timeout", converter = Durations.class,
            description = "Close a connection that has neither sent nor taken any bytes for this long, e.g. 30s"
                    + " (slowloris); counted as idle_closes. Checked about once a second. Default: off.")
    private Duration idleTimeout;

    @Option(names = "--linger-time", converter = Durations.class, defaultValue = Linger.DEFAULT_TIME,
            description = "http: after a closing answer (400, 431, Connection: close, HTTP/1.0), the sending side is shut and"
                    + " what the client still sends is read and dropped for at most this long before the close (RFC 9112 9.6),"
                    + " so that a reset cannot destroy the answer; counted as linger_timeouts. 2s lets a client read its answer"
                    + " across a slow network and still frees a stuck connection soon (default: ${DEFAULT-VALUE}).")
    private Duration lingerTime = Durations.parse(Linger.DEFAULT_TIME);

    @Option(names = "--linger-bytes", defaultValue = Linger.DEFAULT_BYTES,
            description = "http: the most bytes read and dropped while lingering before the close; 1 MiB is more than any"
                    + " head a client sends before it reads, so only a client that never stops sending meets it"
                    + " (default: ${DEFAULT-VALUE}).")
    private long lingerBytes = Long.parseLong(Linger.DEFAULT_BYTES);

    @Option(names = "--mistake", paramLabel = "NAME", converter = Mistake.Converter.class,
            description = "Break the server on purpose, at one marked spot, the way real servers broke (repeatable; listed below).")
    private List<Mistake> mistakeList = new ArrayList<>();

    @Option(names = "--epoll-exclusive",
            description = "With --loops N --mistake herd (et): register the shared listener with EPOLLEXCLUSIVE (Linux 4.5+),"
                    + " so one loop wakes per connection: the kernel's fix for the herd, beside SO_REUSEPORT (the default).")
    private boolean epollExclusive;

    @Option(names = "--work-ns", paramLabel = "N", defaultValue = "0",
            description = "Spin this many nanoseconds of busy work per request (echo: per read that returns bytes), a"
                    + " calibrated slowdown for measuring what a comparison can detect; counted as work_ns (default: off).")
    private long workNs;

    /** Set by the mp master on its workers: stdin is a pipe from the master, and EOF means the master is gone. */
    @Option(names = "--exit-on-stdin-eof", hidden = true,
            description = "Stop gracefully when stdin reaches end of file (mp workers: no orphans if the master dies).")
    private boolean exitOnStdinEof;

    /** The options as one immutable value, checked across options (a bad combination is a bad flag, exit 2). */
    public ServerConfig config() {
        Arch arch = Arch.of(spec.name());
        BackendConfig backend = this.backend == null ? null : this.backend.config(arch);
        check(arch, backend);
        return new ServerConfig(arch, host, port, backlog, bufferSize, sndbuf, reusePort, loops, protocol, backend,
                statsInterval, idleTimeout, lingerTime, lingerBytes, List.copyOf(mistakeList),
                new Mistakes(mistakeList, epollExclusive), workNs, exitOnStdinEof);
    }

    /** Checks what depends on several options, once all are parsed: a bad combination is a bad flag, exit 2. */
    private void check(Arch arch, BackendConfig backend) {
        if (workNs < 0 || workNs > MAX_WORK_NS) {
            throw new ParameterException(spec.commandLine(), "--work-ns must be between 0 and " + MAX_WORK_NS + ", not " + workNs);
        }
        if (backend == null) return;
        if (protocol != Protocol.HTTP) {
            throw new ParameterException(spec.commandLine(), "--backend needs --protocol http (GET /healthz is what calls it)");
        }
        String problem = backend.problem(arch);
        if (problem != null) throw new ParameterException(spec.commandLine(), problem);
    }

    /**
     * Refuses, in one line, an option given that does not act in {@code arch} (mp: its workers'),
     * as lab-common's {@link ServerCatalog} says: those picocli cannot take out of a command's
     * options (the backend group's), and on mp those its workers' architecture ignores.
     */
    void refuseIdle(Arch arch) {
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            if (!ServerCatalog.acts(o.longestName(), arch.label)) {
                throw new IdleOption(spec.commandLine(), idle(o.longestName(), arch.label));
            }
        }
    }

    /** An option given where it does not act: a bad flag that one line explains, with no usage after it. */
    public static final class IdleOption extends ParameterException {
        private static final long serialVersionUID = 1L;

        public IdleOption(picocli.CommandLine commandLine, String message) {
            super(commandLine, message);
        }
    }

    /** The one line that refuses {@code option} on {@code arch}, from the catalog: {@code --sndbuf acts in lt and et, not in vt}. */
    public static String idle(String option, String arch) {
        return option + " acts in " + ServerCatalog.words(ServerCatalog.actsIn(option), "and") + ", not in " + arch;
    }

    /**
     * The options the user gave, as they gave them (defaults left out), except {@code skipped}:
     * what the mp master hands each worker, which parses them with this same class. An option
     * added here reaches the workers with no other edit.
     */
    public List<String> asArgs(Set<String> skipped) {
        for (CommandSpec m : spec.mixins().values()) {
            if (m.userObject() == this) return given(spec.commandLine().getParseResult(), m, skipped);
        }
        return new ArrayList<>();
    }

    /** The options of {@code mixin} that {@code parsed} matched, as the user gave them, except {@code skipped}. */
    public static List<String> given(ParseResult parsed, CommandSpec mixin, Set<String> skipped) {
        List<String> args = new ArrayList<>();
        // A repeated option is matched once per occurrence, and holds all of its values each time.
        for (OptionSpec o : new LinkedHashSet<>(parsed.matchedOptions())) {
            if (!mixin.options().contains(o) || skipped.contains(o.longestName())) continue;
            if (o.arity().max() == 0) {
                args.add(o.longestName());
                continue;
            }
            for (String value : o.originalStringValues()) {
                args.add(o.longestName());
                args.add(value);
            }
        }
        return args;
    }
}

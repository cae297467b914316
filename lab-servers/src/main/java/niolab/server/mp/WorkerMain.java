package niolab.server.mp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import niolab.server.base.BackendMode;
import niolab.server.base.BackendOptions;
import niolab.server.base.Mistake;
import niolab.server.base.Protocol;
import niolab.server.base.ServerOptions;
import niolab.server.base.ServerRunner;
import niolab.server.et.EtCommand;
import niolab.server.lt.LtCommand;
import niolab.server.uring.UringCommand;
import niolab.server.vt.VtCommand;

/**
 * The main class of an mp worker JVM. The master has parsed and checked the user's options
 * already, so it hands each worker the result in a fixed form ({@link #args}) that this class
 * reads back in one loop, without picocli: building picocli's model of a command is most of a
 * small JVM's start, and a pool would pay it once per worker (exp-cold-start measures a worker's
 * start against a whole {@code lab-server lt} start).
 *
 * <pre>
 *   java ... niolab.server.mp.WorkerMain lt --host 127.0.0.1 --port 9988 --reuse-port --exit-on-stdin-eof --backlog 1024 ...
 * </pre>
 *
 * The flags read like the user's, so that {@code ps} shows what each worker serves; the
 * {@code WorkerMainTest} round trip fails when {@link ServerOptions} gains an option this class
 * does not pass on.
 */
public final class WorkerMain {
    private WorkerMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Serves until stopped; the exit status a worker gives its master (2: a command line it cannot read). */
    public static int run(String[] args) {
        Callable<Integer> server;
        try {
            server = Spec.parse(args).command();
        } catch (IndexOutOfBoundsException e) {
            System.err.println("error: a worker's command line is the master's to write: its last flag has no value");
            return 2;
        } catch (RuntimeException e) { // a bad number or name
            System.err.println("error: a worker's command line is the master's to write: " + ServerRunner.describe(e));
            return 2;
        }
        try {
            return server.call();
        } catch (Exception e) {
            System.err.println("error: " + ServerRunner.describe(e));
            return 1;
        }
    }

    /** The worker command line of {@code arch} (lt, et, vt, uring) on {@code host:port}, sharing the port, stopping when the master goes. */
    static List<String> args(String arch, ServerOptions o, String binding, String host, int port) {
        // the pool shares the port, and no worker outlives its master
        List<String> a = new ArrayList<>(List.of(arch, "--host", host, "--port", Integer.toString(port), "--reuse-port", "--exit-on-stdin-eof",
                "--backlog", Integer.toString(o.backlog), "--buffer-size", Integer.toString(o.bufferSize),
                "--loops", Integer.toString(o.loops), "--protocol", o.protocol.name()));
        if (o.statsInterval != null) a.addAll(List.of("--stats-interval", millis(o.statsInterval)));
        if (o.idleTimeout != null) a.addAll(List.of("--idle-timeout", millis(o.idleTimeout)));
        a.addAll(List.of("--linger-time", millis(o.lingerTime), "--linger-bytes", Long.toString(o.lingerBytes)));
        for (Mistake m : o.mistakeList) a.addAll(List.of("--mistake", m.name()));
        if (o.epollExclusive) a.add("--epoll-exclusive");
        if (o.sndbuf > 0) a.addAll(List.of("--sndbuf", Integer.toString(o.sndbuf)));
        BackendOptions b = o.backend;
        if (b != null) {
            a.addAll(List.of("--backend", b.address.host(), b.address.resolved().getAddress().getHostAddress(),
                    Integer.toString(b.address.port()), "--backend-mode", b.mode.name(),
                    "--backend-timeout", millis(b.timeout), "--backend-threads", Integer.toString(b.threads)));
        }
        if (binding != null) a.addAll(List.of("--binding", binding));
        return a;
    }

    /** What a worker's command line says: the architecture, its options, et's binding. */
    record Spec(String arch, ServerOptions options, String binding) {
        /** Reads back what {@link #args} wrote. */
        static Spec parse(String[] args) {
            if (args.length == 0) throw new IllegalArgumentException("no architecture");
            ServerOptions o = ServerOptions.forWorker(args[0]);
            String binding = "jna";
            for (int i = 1; i < args.length; i++) {
                String flag = args[i];
                switch (flag) {
                    case "--host": o.host = args[++i]; break;
                    case "--port": o.port = Integer.parseInt(args[++i]); break;
                    case "--reuse-port": o.reusePort = true; break;
                    case "--exit-on-stdin-eof": o.exitOnStdinEof = true; break;
                    case "--backlog": o.backlog = Integer.parseInt(args[++i]); break;
                    case "--buffer-size": o.bufferSize = Integer.parseInt(args[++i]); break;
                    case "--sndbuf": o.sndbuf = Integer.parseInt(args[++i]); break;
                    case "--loops": o.loops = Integer.parseInt(args[++i]); break;
                    case "--protocol": o.protocol = Protocol.valueOf(args[++i]); break;
                    case "--stats-interval": o.statsInterval = Duration.ofMillis(Long.parseLong(args[++i])); break;
                    case "--idle-timeout": o.idleTimeout = Duration.ofMillis(Long.parseLong(args[++i])); break;
                    case "--linger-time": o.lingerTime = Duration.ofMillis(Long.parseLong(args[++i])); break;
                    case "--linger-bytes": o.lingerBytes = Long.parseLong(args[++i]); break;
                    case "--mistake": o.mistakeList.add(Mistake.valueOf(args[++i])); break;
                    case "--epoll-exclusive": o.epollExclusive = true; break;
                    case "--backend":
                        o.backend = new BackendOptions();
                        o.backend.address = BackendOptions.Address.literal(args[++i], args[++i], Integer.parseInt(args[++i]));
                        break;
                    case "--backend-mode": backend(o, flag).mode = BackendMode.valueOf(args[++i]); break;
                    case "--backend-timeout": backend(o, flag).timeout = Duration.ofMillis(Long.parseLong(args[++i])); break;
                    case "--backend-threads": backend(o, flag).threads = Integer.parseInt(args[++i]); break;
                    case "--binding": binding = args[++i]; break;
                    default: throw new IllegalArgumentException("unknown flag '" + flag + "'");
                }
            }
            return new Spec(args[0], o, binding);
        }

        private static BackendOptions backend(ServerOptions o, String flag) {
            if (o.backend == null) throw new IllegalArgumentException(flag + " before --backend");
            return o.backend;
        }

        Callable<Integer> command() {
            switch (arch) {
                case "lt": return LtCommand.of(options);
                case "et": return EtCommand.of(options, binding);
                case "vt": return VtCommand.of(options);
                case "uring": return UringCommand.of(options);
                default: throw new IllegalArgumentException("unknown architecture '" + arch + "'");
            }
        }
    }

    /** Whole milliseconds: every duration option is given in them or coarser. */
    private static String millis(Duration d) {
        return Long.toString(d.toMillis());
    }
}

package niolab.bench;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;

/**
 * What drives one slice of {@code echo-bench compare}: echo-bench's own load engine
 * ({@link Engine}), or wrk ({@link WrkSliceLoad}) so that the experiments' wrk runs get the same design.
 */
interface SliceLoad {
    /** Load for {@code nanos}, not measured: the server's and the client's code gets compiled. */
    void warm(CompareTarget target, long nanos) throws IOException;

    Slice run(CompareTarget target, int fork, int round, int position, long nanos) throws IOException;

    /** e.g. {@code echo-bench, 50 connections (keep-alive) on 2 threads, 64-byte payload}. */
    String describe();

    /** One blocking connect: a port nobody listens on is known at once, not after a slice of errors. */
    static boolean refuses(CompareTarget target, long timeoutMillis) {
        try (Socket s = new Socket()) {
            s.connect(target.address(), (int) Math.max(1, timeoutMillis));
            return false;
        } catch (ConnectException e) {
            return String.valueOf(e.getMessage()).contains("refused");
        } catch (IOException e) {
            return false; // anything else shows up, classified, in the slice itself
        }
    }

    /** CPU per request in µs from a slice's nanoseconds; NaN unknown or with nothing served. */
    static double perRequestUs(long cpuNanos, long requests) {
        return cpuNanos < 0 || requests <= 0 ? Double.NaN : cpuNanos / 1000.0 / requests;
    }

    /** echo-bench's load engine ({@link LoadRun}), run in this JVM for each slice. */
    final class Engine implements SliceLoad {
        /** The payload of every comparison: echo-bench's default seed, the same bytes for every server. */
        private static final long PAYLOAD_SEED = 1;

        private final LoadOptions options;
        /** By target: a server started afresh in each fork has a port of its own in each. */
        private final Map<CompareTarget, LoadSpec> specs = new HashMap<>();

        Engine(LoadOptions options) {
            this.options = options;
        }

        private LoadSpec spec(CompareTarget target) {
            return specs.computeIfAbsent(target, t -> options.spec(target.address(), target.hostPort(), PAYLOAD_SEED,
                    SerialSocket.Kind.forRun(true)));
        }

        @Override
        public void warm(CompareTarget target, long nanos) {
            if (nanos > 0 && !refuses(target, options.timeout.toMillis())) new LoadRun(spec(target), 0, -1, null).run(0, Long.MAX_VALUE, nanos);
        }

        @Override
        public Slice run(CompareTarget target, int fork, int round, int position, long nanos) {
            if (refuses(target, options.timeout.toMillis())) return Slice.refused(fork, round, position, target.name());
            LoadSpec spec = spec(target);
            // the server's CPU from the meter's nanosecond clocks, not LoadRun's ticks
            CpuMeter meter = CpuMeter.start(target.pid());
            RunResult r = new LoadRun(spec, 0, -1, null).run(round, Long.MAX_VALUE, nanos);
            Rulers.Reading cpu = meter.stopEngine(spec.serial() ? 1 : spec.threads, r.clientBusiestThreadCpuNanos);
            boolean refused = r.ok() == 0 && r.attempted() > 0 && r.errors.get(ErrorClass.REFUSED) == r.attempted();
            return new Slice(fork, round, position, target.name(), r.ok(), r.errors.total(), r.elapsedSeconds(), rate(r, nanos / 1e9),
                    r.ok() == 0 ? Double.NaN : r.percentile(50), r.ok() == 0 ? Double.NaN : r.percentile(99),
                    perRequestUs(cpu.serverNs(), r.ok()), refused, cpu);
        }

        /**
         * Requests per second of the slice, which lasts at least as long as planned (the answers
         * in flight at its end still count). Under --rate, over the planned length: the schedule's
         * rate, exactly, for every server that keeps up with it; one that does not shows in its
         * corrected p99 and its errors.
         */
        private double rate(RunResult r, double plannedSeconds) {
            return r.ok() / (options.rate > 0 ? plannedSeconds : Math.max(r.elapsedSeconds(), plannedSeconds));
        }

        @Override
        public String describe() {
            LoadSpec any = options.spec(new java.net.InetSocketAddress("127.0.0.1", 1), "127.0.0.1:1", PAYLOAD_SEED, SerialSocket.Kind.forRun(true));
            return "echo-bench, " + any.describe() + ", " + (options.protocol == WireProtocol.HTTP ? "HTTP GET " + options.path : options.size + "-byte payload");
        }
    }
}

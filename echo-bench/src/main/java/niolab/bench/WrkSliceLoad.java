package niolab.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.common.WrkOutput;

/**
 * Each slice is one wrk run ({@code wrk -t1 -cC -dS --latency URL}), its text read by
 * {@link WrkOutput}: wrk's load with compare's design (random order, pairing, intervals).
 * The server's and wrk's CPU are read around the run ({@link CpuMeter}), as the engine's are.
 */
final class WrkSliceLoad implements SliceLoad {
    /** Time wrk gets beyond its slice to report, before it is taken for hung and killed. */
    private static final long GRACE_SECONDS = 10;

    private final String wrk;
    private final LoadOptions options;
    /** A Lua script for --pipeline (scripts/wrk-pipeline.lua), given the depth after "--"; or null. */
    private final Path script;

    WrkSliceLoad(String wrk, LoadOptions options, Path script) {
        this.wrk = wrk;
        this.options = options;
        this.script = script;
    }

    /** Thrown when wrk cannot be started or printed no result: a tool failure, not a server's. */
    static final class WrkFailed extends IOException {
        WrkFailed(String message) {
            super(message);
        }
    }

    @Override
    public void warm(CompareTarget target, long nanos) throws IOException {
        if (nanos >= 1_000_000_000L && !SliceLoad.refuses(target, options.timeout.toMillis())) wrk(target, nanos);
    }

    @Override
    public Slice run(CompareTarget target, int fork, int round, int position, long nanos) throws IOException {
        if (SliceLoad.refuses(target, options.timeout.toMillis())) return Slice.refused(fork, round, position, target.name());
        CpuMeter meter = CpuMeter.start(target.pid());
        String text = wrk(target, nanos);
        Rulers.Reading cpu = meter.stopChild(threads());
        WrkOutput w;
        try {
            w = WrkOutput.parse(text);
        } catch (WrkOutput.NotWrkOutput e) {
            if (text.contains("Connection refused")) return Slice.refused(fork, round, position, target.name());
            throw new WrkFailed("wrk against " + target.name() + ": " + e.getMessage());
        }
        return new Slice(fork, round, position, target.name(), w.requests(), w.errors(), w.seconds(), w.requestsPerSecond(), w.p50Us(), w.p99Us(),
                SliceLoad.perRequestUs(cpu.serverNs(), w.requests()), false, cpu);
    }

    private String wrk(CompareTarget target, long nanos) throws IOException {
        List<String> command = new ArrayList<>(List.of(wrk, "-t" + threads(),
                "-c" + options.connections, "-d" + (nanos / 1_000_000_000L) + "s", "--timeout", Math.max(1, options.timeout.toSeconds()) + "s",
                "--latency"));
        if (!options.keepAliveOrPipelined()) command.addAll(List.of("-H", "Connection: close"));
        if (script != null) command.addAll(List.of("-s", script.toString()));
        command.add("http://" + target.hostPort() + options.path);
        if (script != null) command.addAll(List.of("--", Integer.toString(options.pipeline)));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new WrkFailed("cannot run " + wrk + ": " + e.getMessage());
        }
        try {
            if (!p.waitFor(nanos / 1_000_000_000L + GRACE_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new WrkFailed("wrk against " + target.name() + " did not finish within its slice and " + GRACE_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new WrkFailed("interrupted while wrk ran");
        }
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** wrk's -t: --threads (default 1), at most one per connection. */
    private int threads() {
        return Math.min(options.threads == null ? 1 : options.threads, options.connections);
    }

    @Override
    public String describe() {
        return "wrk -t" + threads() + " -c" + options.connections
                + (options.keepAliveOrPipelined() ? "" : " (Connection: close)")
                + (script != null ? " -s " + script + " (pipeline " + options.pipeline + ")" : "") + ", HTTP GET " + options.path;
    }
}

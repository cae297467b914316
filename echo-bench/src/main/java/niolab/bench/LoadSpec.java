package niolab.bench;

import java.net.InetSocketAddress;

/** What one load run does: immutable, shared by the coordinator and every worker thread. */
public final class LoadSpec {
    public final InetSocketAddress target;
    public final Codec codec;
    public final int connections;
    public final int threads;
    public final boolean keepAlive;
    /** Requests in flight per keep-alive connection (1 without --pipeline). */
    public final int pipeline;
    /** Requests per second over all connections, or 0 for a closed loop. */
    public final double rate;
    public final long timeoutNanos;
    public final boolean linger0;
    /** How a serial run makes its calls ({@link SerialSocket.Kind#forRun}). */
    final SerialSocket.Kind serialKind;

    public LoadSpec(InetSocketAddress target, Codec codec, int connections, int threads, boolean keepAlive,
            int pipeline, double rate, long timeoutNanos, boolean linger0) {
        this(target, codec, connections, threads, keepAlive, pipeline, rate, timeoutNanos, linger0, SerialSocket.Kind.forRun(true));
    }

    LoadSpec(InetSocketAddress target, Codec codec, int connections, int threads, boolean keepAlive,
            int pipeline, double rate, long timeoutNanos, boolean linger0, SerialSocket.Kind serialKind) {
        this.target = target;
        this.codec = codec;
        this.connections = connections;
        this.threads = Math.max(1, Math.min(threads, connections));
        this.keepAlive = keepAlive;
        this.pipeline = pipeline;
        this.rate = rate;
        this.timeoutNanos = timeoutNanos;
        this.linger0 = linger0;
        this.serialKind = serialKind;
    }

    /** The original write-up's mode: one blocking client, a fresh connection per request, no schedule. */
    public boolean serial() {
        return connections == 1 && !keepAlive && rate == 0;
    }

    /** e.g. {@code 50 connections (keep-alive, pipeline 4) on 2 threads, rate 1000/s}. */
    public String describe() {
        if (serial()) return "serial short connections (" + serialKind.label + ")";
        StringBuilder sb = new StringBuilder();
        sb.append(connections).append(connections == 1 ? " connection" : " connections");
        sb.append(keepAlive ? " (keep-alive" + (pipeline > 1 ? ", pipeline " + pipeline : "") + ")" : " (short: one request each)");
        sb.append(" on ").append(threads).append(threads == 1 ? " thread" : " threads");
        if (rate > 0) sb.append(", rate ").append(String.format(java.util.Locale.ROOT, "%.0f", rate)).append("/s");
        if (linger0) sb.append(", SO_LINGER 0");
        return sb.toString();
    }
}

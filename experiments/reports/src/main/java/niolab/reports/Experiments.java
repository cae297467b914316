package niolab.reports;

import java.util.ArrayList;
import java.util.List;

/**
 * The registry: every experiment the generator knows, in the order {@code make reports}
 * renders them.
 *
 * <p>Adding experiment NAME (say {@code uring}) takes four files and one line:
 * <ol>
 *   <li>{@code experiments/scripts/exp-NAME.sh} runs it: it sets {@code NAME}, sources
 *       {@code common.sh} (a fresh {@code results/NAME/} with {@code env.json}), writes its raw
 *       files there (echo-bench {@code --json}, CSV, server logs) and ends with {@code report};</li>
 *   <li>{@code experiments/templates/exp-NAME.md} is the report's text, with a {@code {{key}}}
 *       wherever a number, table or winner goes ({@code {{env}}} is always there); a sentence that
 *       depends on the run is there once per case, {@code {{#key=case}}...{{/key=case}}}, kept where the
 *       generator put that case, and one said in several places is defined once,
 *       {@code {{=key}}...{{/=}}}, and quoted as {@code {{key}}} ({@link Report#fill});</li>
 *   <li>{@code UringExperiment implements Experiment}, one class, reads the raw files through
 *       {@link Results} ({@link Results#bench}, {@link Results#csv}, {@link Results#counters}),
 *       summarises them with {@link Stats}, formats with {@link Md}, draws with {@link SvgChart},
 *       and puts every key of the template into the {@link Report};</li>
 *   <li>one row in {@link #ROWS} below (the experiment, what its run needs, what it answers:
 *       {@code make reports} writes experiments/README.md's table from them) and the name in the
 *       Makefile's {@code EXPERIMENTS} ({@code make exp-NAME}); {@code ExperimentsTableTest}
 *       fails while the committed table or the Makefile differ;</li>
 *   <li>commit the results with the generated {@code exp-NAME.md} and charts:
 *       {@code ExperimentReportsTest} fails while they differ from what the results regenerate.</li>
 * </ol>
 */
public final class Experiments {
    /**
     * Every experiment with its row in experiments/README.md's table ({@link ExperimentsTable}):
     * what its run needs besides the build, and what it answers (Markdown, links relative to
     * experiments/).
     */
    private static final List<Row> ROWS = List.of(
            row(new ShortRunExperiment(), "needs nc",
                    "The [original write-up](../README.md#the-original-lab-write-up)'s experiment 2.1: 100 serial requests × 3 runs per architecture, bench.sh with 100 nc clients, the 10-60 sweep: do LT, ET and MP tie, and why our numbers differ from the write-up's"),
            row(new LongRunExperiment(), "",
                    "60,000 serial requests per architecture with QPS and P99 per 500 ms: how a JVM server warms up, and the steady state against the short run (the write-up's 2.17×)"),
            row(new ConcurrencyExperiment(), "",
                    "Keep-alive and short connections at 1 to 256 connections: where each architecture saturates, what happens to P99, and what MP costs on one core"),
            row(new SyscallsExperiment(), "needs strace",
                    "Which syscalls lt, et and mp make per request (strace on every server thread, beside the servers' counters) for serial short connections, keep-alive and 1 MiB echoes; what ET saves or costs against LT; what the JDK's Selector adds"),
            row(new TimeWaitExperiment(), "needs root",
                    "When short connections exhaust the ephemeral ports (TIME-WAIT over time, in a throwaway network namespace with 1000 ports), and what keep-alive, `SO_LINGER 0` and `tcp_tw_reuse` change"),
            row(new HttpExperiment(), "needs wrk and redis-server",
                    "HTTP /ping on lt, et, mp beside Netty (NIO, epoll, io_uring, and netty-http with Netty's own HTTP codec) under wrk and echo-bench, keep-alive, `Connection: close` and pipelined; redis PING on the same core"),
            row(new NetworkExperiment(), "needs root and ip",
                    "Client and server in network namespaces with a real round-trip time (a relay delaying each chunk): at what RTT the architectures stop mattering to a client, what still differs when they do, and two generators merged from their interval logs"),
            row(new MistakesExperiment(), "",
                    "Each `--mistake` (accept-once, read-once, standing-write, keys-not-removed, no-accept-backoff, unbounded-output, blocking-on-loop, nagle, herd) beside the correct server: stranded connections, stalled bytes, CPU spent idle, RSS over time, latency, wasted wakeups; and the line of the lab's code that avoids each"),
            row(new BackendExperiment(), "needs redis-server",
                    "/ping and /healthz (two Redis GETs) on lt and et with the backend called from the loop, from a thread pool and from the loop thread, Redis on the server's core; round trips and wake-ups per request; redis-benchmark GET as the ceiling"),
            row(new ColdStartExperiment(), "needs JDK 17 and JDK 25",
                    "The 100-request serial run with fresh JVMs on JDK 17, JDK 25 and JDK 25 with the AOT cache, and against a warmed server: how much of the short run is the JVMs starting; time from exec to the ready line for lt and an mp pool of 4; which classes a start loads, and from where"),
            row(new FfiExperiment(), "needs JDK 22+, strace, gcc, jq",
                    "What et's binding costs, JNA against FFM: ns per call over C (`make bench-ffi`), syscalls per request of the servers and the serial client (strace), et's throughput and CPU per request on each binding, and the binding's share of that CPU"),
            row(new UringExperiment(), "needs JDK 22+",
                    "The `uring` server in its modes basic, multishot and bufring beside et, lt, the C reference and netty-uring: keep-alive echo at 1, 50 and 1000 connections and pipelined /ping; syscalls per request; what each io_uring feature buys against epoll on this kernel"),
            row(new ArchitecturesExperiment(), "needs wrk, JDK 22+, gcc",
                    "Every server side by side (lt, et on JNA and FFM, vt, `--loops`, mp, the Netty peers, netty-http, the C reference): keep-alive echo at 1 to 10,000 connections, short connections, keep-alive and pipelined /ping; server CPU and context switches per request, RSS at 10,000 idle connections, exec to ready; the lab's claims against C checked on the run"),
            row(new NoiseExperiment(), "",
                    "How noise behaves on the machine that runs it: A/A interval width by slice length (0.25, 1, 4 s) and rounds in one budget, the order bias, sequential rounds against paired slices, a CPU hog on the servers' core, and one A/B comparison (vt against lt) repeated over an hour"),
            row(new ProfileExperiment(), "JDK 22+ for all servers, gcc, perf for C",
                    "Where each server's CPU goes: every server profiled by async-profiler (perf for C) under keep-alive /ping, pipelined /ping and keep-alive echo (and lt, et, C under short connections: the CPU of each JDK call of lt's accept-to-close path); the shares by category (parser, loop, JDK NIO, native crossing, epoll/io_uring, kernel TCP, vt scheduler, GC, JIT), a flame graph per profile, what vt pays per request that lt does not"),
            row(new VtExperiment(), "gcc, wrk optional",
                    "vt's targets in paired random-order rounds (`echo-bench compare`, and the C keepalive-client's rounds paired the same way): vt's CPU per keep-alive /ping within 1.25× lt's (echo-bench and wrk), vt's keep-alive echo rate at least 0.7× lt's (echo-bench and the C client), lt's CPU per short connection within 1.2× C's; the JDK's virtual-thread knobs (pollerMode, readPollers, scheduler parallelism, maxPoolSize) each against plain vt; whether exp-architectures' vt/lt echo ratio and an earlier quoted one reproduce"));
    private static final List<Experiment> ALL = experiments();


    private Experiments() {
    }

    public static List<Experiment> all() {
        return ALL;
    }

    /** The README's table rows, in {@link #all()}'s order. */
    static List<Row> rows() {
        return ROWS;
    }

    /**
     * One row of experiments/README.md's table.
     *
     * @param experiment the experiment: its name makes the report's link and the command
     * @param runNote    what {@code make exp-NAME} needs besides the build, as the Command cell says it after the command ("" for nothing)
     * @param answers    the questions it answers, one Markdown cell
     */
    record Row(Experiment experiment, String runNote, String answers) {
    }

    private static Row row(Experiment experiment, String runNote, String answers) {
        return new Row(experiment, runNote, answers);
    }

    private static List<Experiment> experiments() {
        List<Experiment> all = new ArrayList<>();
        for (Row r : ROWS) all.add(r.experiment());
        return List.copyOf(all);
    }

    public static Experiment byName(String name) {
        List<String> known = new ArrayList<>();
        for (Experiment e : ALL) {
            if (e.name().equals(name)) return e;
            known.add(e.name());
        }
        throw new IllegalArgumentException("no experiment named '" + name + "' (known: " + String.join(", ", known) + ")");
    }
}

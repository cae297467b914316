package niolab.server.mp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import niolab.common.ReadyLine;
import niolab.server.base.Counters;

/**
 * One worker slot of the pool ({@code w1}, {@code w2}, ...) and its successive lives: each life
 * is one child JVM. Two relay threads per life copy the child's output, prefixed, and report to
 * the master's queue when it is ready and when it has exited; everything else about the slot
 * (restart schedule, failure history, counters of past lives) belongs to the master's thread.
 */
final class Worker {
    private static final long STDERR_JOIN_MS = 2000;

    final int id;
    final String tag;
    private final BlockingQueue<PoolEvent> events;
    private final PrintStream out;
    private final PrintStream err;

    /** The running life, or null between an exit and the restart. */
    Life life;
    boolean restartPending;
    /** When the pending restart is due ({@link System#nanoTime()}). */
    long restartAt;
    int restarts;
    /** Lives in a row that exited before they were ready. */
    int failedStartsInARow;
    /** When recent unexpected exits happened, oldest first (pruned by the master). */
    final ArrayDeque<Long> recentExits = new ArrayDeque<>();
    /** The sum of the counters of every life that has ended. */
    final Counters pastLives;
    /** What the worker's counters line calls its wait ({@code selects}, {@code epoll_waits}). */
    final String waitName;

    Worker(int id, String waitName, BlockingQueue<PoolEvent> events, PrintStream out, PrintStream err) {
        this.waitName = waitName;
        this.pastLives = new Counters(waitName);
        this.id = id;
        this.tag = "[w" + id + "] ";
        this.events = events;
        this.out = out;
        this.err = err;
    }

    /** Starts a new life; its stdin stays an open pipe that nobody writes (see {@code --exit-on-stdin-eof}). */
    Life launch(List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        WorkerCommand.dropLauncherEnvironment(pb.environment());
        Life l = new Life(this, pb.start());
        life = l;
        restartPending = false;
        l.start();
        return l;
    }

    /** Closes the books on a life that has exited: what it counted joins the past lives. */
    void ended(Life l) {
        Counters last = l.lastCounters;
        if (last != null) pastLives.addAll(last);
        if (life == l) life = null;
    }

    /** Past lives plus what the running one last reported. */
    Counters total() {
        Counters c = new Counters(pastLives.waitName());
        c.addAll(pastLives);
        Life l = life;
        if (l != null && l.lastCounters != null) c.addAll(l.lastCounters);
        return c;
    }

    /** One child JVM of this slot. */
    static final class Life {
        final Worker worker;
        final Process process;
        final long startedAt = System.nanoTime();
        /** Set by the master when it has handled this life's ready event. */
        boolean ready;
        /** Set by the master when it killed this life for taking too long to start. */
        boolean killed;
        /**
         * The latest counters the child printed: its final {@code counters:} line, or, for a
         * life killed before it could print one, its last {@code stats:} line (if it printed any).
         */
        volatile Counters lastCounters;
        /** The child's first stderr line (the error, not the usage or stack trace after it), quoted when the master gives up. */
        volatile String firstError;
        private Thread stderrRelay;

        Life(Worker worker, Process process) {
            this.worker = worker;
            this.process = process;
        }

        private void start() {
            String name = "w" + worker.id + "-" + process.pid();
            stderrRelay = daemon(name + "-stderr", this::relayStderr);
            stderrRelay.start();
            daemon(name + "-stdout", this::relayStdoutThenReportExit).start();
        }

        private void relayStdoutThenReportExit() {
            try (BufferedReader r = reader(process.getInputStream())) {
                String line;
                boolean sawReady = false;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("counters: ")) {
                        // Not relayed: the master prints each slot's total over all its lives at the end.
                        lastCounters = Counters.parse(line, worker.waitName);
                        continue;
                    }
                    if (line.startsWith("stats: ")) lastCounters = Counters.parse(line, worker.waitName);
                    worker.out.println(worker.tag + line);
                    ReadyLine ready = sawReady ? null : ReadyLine.parse(line);
                    if (ready != null) {
                        sawReady = true;
                        worker.events.add(PoolEvent.ready(this, ready));
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // the child went away; its exit is reported below
            }
            // Its stdout has ended, so it is exiting (or killed); wait for the status, and for
            // the last stderr lines, so the master handles the exit with the whole story.
            int status;
            try {
                status = process.waitFor();
                stderrRelay.join(STDERR_JOIN_MS);
            } catch (InterruptedException e) {
                status = -1;
            }
            worker.events.add(PoolEvent.exited(this, status));
        }

        private void relayStderr() {
            try (BufferedReader r = reader(process.getErrorStream())) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (firstError == null) firstError = line;
                    worker.err.println(worker.tag + line);
                }
            } catch (IOException ignored) {
                // the child went away
            }
        }

        private static BufferedReader reader(InputStream in) {
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        }

        private static Thread daemon(String name, Runnable r) {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        }
    }
}

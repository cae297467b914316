package niolab.aot;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import niolab.common.ServerCatalog;
import niolab.server.LabServer;
import niolab.server.mp.WorkerMain;

/**
 * The training run of lab-server's AOT cache ({@code make aot}, JDK 25+): one JVM that starts,
 * serves and stops each server of the catalog's {@code aot} selection, in turn, through the same
 * command line a user types: each with echo and HTTP, an mp master with one worker of it, and,
 * in this JVM, the mp workers' own entry point ({@link WorkerMain}, which the workers' JVMs start
 * with) on the command line the master writes. One JVM, because a cache records one training run: whatever this run
 * loads, links and profiles, every later start finds ready.
 *
 * <p>Its traffic comes from here too, every byte checked: a broken server fails the training
 * rather than leaving a cache of its error paths.
 *
 * <pre>
 *   java -XX:AOTMode=record -XX:AOTConfiguration=F -cp lab-servers.jar:aot-training.jar niolab.aot.LabServerTraining
 * </pre>
 */
public final class LabServerTraining {
    /** Enough requests for the JIT to see each server's hot loop (JEP 515 keeps its profiles). */
    private static final int SHORT_CONNECTIONS = 300;
    /** The catalog's selection of servers trained: each alone, as an mp master's worker, and as the worker itself. */
    private static final String SELECTION = "aot";
    /** The first word of a training that runs {@link WorkerMain} rather than {@code lab-server}. */
    private static final String WORKER = "worker";
    private static final int KEEPALIVE_REQUESTS = 3000;
    private static final int PIPELINE_DEPTH = 16;
    private static final int TIMEOUT_MS = 5000;
    /** mp's workers are fresh JVMs recording their own (discarded) configuration: slow to start. */
    private static final long READY_TIMEOUT_MS = 60_000;
    private static final byte[] PAYLOAD = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PING = "GET /ping HTTP/1.1\r\nHost: training\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PING_BODY = "{\"status\":\"ok\"}".getBytes(StandardCharsets.US_ASCII);

    private LabServerTraining() {
    }

    public static void main(String[] args) throws Exception {
        List<String[]> servers = new ArrayList<>();
        for (String name : ServerCatalog.selection(SELECTION)) {
            ServerCatalog.Server s = ServerCatalog.server(name);
            if (s.minJdk() > Runtime.version().feature()) continue; // et --binding ffm: JDK 22+
            List<String> words = s.words(2);
            List<String> asWorkers = List.of(concat(List.of("--worker-arch"), words));
            servers.add(concat(words));
            servers.add(concat(words, List.of("--protocol", "http")));
            servers.add(concat(List.of("mp", "--workers", "1"), asWorkers));
            servers.add(concat(List.of(WORKER), asWorkers));
            servers.add(concat(List.of(WORKER), asWorkers, List.of("--protocol", "http")));
        }
        for (String[] server : servers) train(server);
        System.out.println("training: " + servers.size() + " servers started, served and stopped");
    }

    @SafeVarargs
    private static String[] concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> p : parts) all.addAll(p);
        return all.toArray(new String[0]);
    }

    /** Runs {@code lab-server ARGS --port P} on a thread, sends it traffic, stops it with SIGTERM as a user would. */
    private static void train(String[] args) throws Exception {
        int port = freePort();
        String[] full = Arrays.copyOf(args, args.length + 2);
        full[args.length] = "--port";
        full[args.length + 1] = Integer.toString(port);
        int[] exit = {-1};
        Thread server = new Thread(() -> exit[0] = args[0].equals(WORKER)
                ? WorkerMain.run(workerArgv(port, Arrays.copyOfRange(args, 1, args.length)))
                : LabServer.commandLine(full).execute(full), "training-server");
        server.start();
        awaitListening(port, server);
        boolean http = Arrays.asList(args).contains("http") || Arrays.asList(args).contains("HTTP");
        if (http) {
            for (int i = 0; i < SHORT_CONNECTIONS; i++) httpShort(port);
            httpKeepAlive(port, KEEPALIVE_REQUESTS, 1);
            httpKeepAlive(port, KEEPALIVE_REQUESTS, PIPELINE_DEPTH);
        } else {
            for (int i = 0; i < SHORT_CONNECTIONS; i++) echo(port, 1);
            echo(port, KEEPALIVE_REQUESTS);
        }
        // SIGTERM to this JVM, as a user stops a server: ServerRunner's handler drains and stops it.
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(ProcessHandle.current().pid())).inheritIO().start();
        if (kill.waitFor() != 0) throw new IllegalStateException("kill -TERM failed");
        server.join(READY_TIMEOUT_MS);
        if (server.isAlive() || exit[0] != 0) {
            throw new IllegalStateException("lab-server " + String.join(" ", args) + " did not stop cleanly (exit " + exit[0] + ")");
        }
    }

    /**
     * The command line the master of {@code mp MP_ARGS} gives a worker on {@code port}, written
     * by the master's own code; without {@code --exit-on-stdin-eof}, since this JVM's stdin is no
     * master's pipe.
     */
    private static String[] workerArgv(int port, String... mpArgs) {
        List<String> argv = new ArrayList<>(WorkerMain.argv(port, mpArgs));
        argv.remove("--exit-on-stdin-eof");
        return argv.toArray(new String[0]);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void awaitListening(int port, Thread server) throws InterruptedException {
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline && server.isAlive()) {
            try (Socket ignored = connect(port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
        }
        throw new IllegalStateException("lab-server did not listen on port " + port);
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.setSoTimeout(TIMEOUT_MS);
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), TIMEOUT_MS);
        return s;
    }

    /** {@code requests} echoes of the payload on one connection, each checked byte for byte. */
    private static void echo(int port, int requests) throws IOException {
        byte[] back = new byte[PAYLOAD.length];
        try (Socket s = connect(port)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (int i = 0; i < requests; i++) {
                out.write(PAYLOAD);
                readFully(in, back);
                if (!Arrays.equals(back, PAYLOAD)) throw new IOException("echo differs from what was sent");
            }
        }
    }

    private static void httpShort(int port) throws IOException {
        try (Socket s = connect(port)) {
            s.getOutputStream().write("GET /ping HTTP/1.1\r\nHost: training\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] all = s.getInputStream().readAllBytes();
            if (count(all, all.length, PING_BODY) != 1) throw new IOException("no /ping answer before close");
        }
    }

    /** {@code requests} GET /ping, {@code depth} at a time, every answer counted by its body. */
    private static void httpKeepAlive(int port, int requests, int depth) throws IOException {
        byte[] batch = new byte[PING.length * depth];
        for (int i = 0; i < depth; i++) System.arraycopy(PING, 0, batch, i * PING.length, PING.length);
        byte[] buf = new byte[64 * 1024];
        try (Socket s = connect(port)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (int sent = 0; sent < requests; sent += depth) {
                out.write(batch);
                int have = 0;
                while (count(buf, have, PING_BODY) < depth) {
                    int n = in.read(buf, have, buf.length - have);
                    if (n < 0) throw new IOException("closed before " + depth + " answers");
                    have += n;
                }
            }
        }
    }

    private static void readFully(InputStream in, byte[] into) throws IOException {
        for (int have = 0; have < into.length; ) {
            int n = in.read(into, have, into.length - have);
            if (n < 0) throw new IOException("closed after " + have + " of " + into.length + " bytes");
            have += n;
        }
    }

    private static int count(byte[] haystack, int length, byte[] needle) {
        int found = 0;
        for (int i = 0; i + needle.length <= length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) found++;
        }
        return found;
    }
}

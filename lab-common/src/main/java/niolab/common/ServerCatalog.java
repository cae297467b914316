package niolab.common;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every server the lab names, once: the architectures of {@code lab-server}, their variants
 * (a binding, a mode, a loop count), the Netty peers and the C reference, with what the
 * scripts, the reports and {@code lab-server} itself need to know of each; the selections the
 * scripts and experiments run; and the shared options that act only in some architectures.
 * Here, in lab-common, because echo-bench and the reports must not depend on server code;
 * {@code bin/lab-server catalog} prints it as TSV for the shell, with each server's options
 * read from the command line's own model.
 *
 * <pre>
 *   ServerCatalog.server("et-ffm").command()          // "et --binding ffm"
 *   ServerCatalog.server("lt-loops").label(4)          // "lt --loops 4"
 *   ServerCatalog.selection("http")                    // lt, et, mp and the Netty peers, the baseline first
 *   ServerCatalog.actsIn("--sndbuf")                   // [lt, et]: refused by the others' parsers
 * </pre>
 */
public final class ServerCatalog {
    /** What every server's {@code --version} prints, lab-server's and the Netty peers'. */
    public static final String VERSION = "NIO Lab 0.1";
    /** In a command or a label: the count it is run with (loops, workers). */
    public static final String N = "{n}";

    /**
     * One named server.
     *
     * @param name       what scripts, reports and {@code bin/lab-server} call it: {@code et-ffm}
     * @param command    the words after {@code bin/lab-server} that start it, {@link #N} for its count
     * @param arch       the architecture that runs it: a {@code lab-server} subcommand, {@code netty} or {@code c}
     * @param minJdk     the oldest JDK it runs on (the jars' JDK; 0 for the C reference, which needs none)
     * @param mpWorker   whether mp's workers can run it ({@code mp --worker-arch ARCH} and its options)
     * @param nettyPeer  the Netty server built the same way, or "" for none
     * @param label      how reports name it, {@link #N} for its count
     * @param httpOnly   whether it speaks only HTTP (netty-http); every other server speaks echo and HTTP
     */
    public record Server(String name, String command, String arch, int minJdk, boolean mpWorker, String nettyPeer,
                         String label, boolean httpOnly) {
        public Server {
            if (name.isBlank() || command.isBlank() || arch.isBlank() || label.isBlank()) {
                throw new IllegalArgumentException("a catalog entry needs a name, a command, an architecture and a label: " + name);
            }
        }

        /** The command's words, its count {@code n}. */
        public List<String> words(int n) {
            return List.of(command.replace(N, Integer.toString(n)).split(" "));
        }

        /** The report's name for it, its count {@code n}. */
        public String label(int n) {
            return label.replace(N, Integer.toString(n));
        }

        /** Whether it is a {@code lab-server} architecture of the JVM (not a Netty peer, not C). */
        public boolean labServer() {
            return !arch.equals("netty") && !arch.equals("c");
        }
    }

    private static final Map<String, Server> SERVERS = new LinkedHashMap<>();
    private static final Map<String, List<String>> SELECTIONS = new LinkedHashMap<>();
    private static final Map<String, List<String>> ACTS_IN = new LinkedHashMap<>();

    static {
        // name, command, arch, JDK, mp worker, Netty peer, label, HTTP only: in the order help and reports list them
        add("bio", "bio", "bio", 17, false, "", "bio", false);
        add("lt", "lt", "lt", 17, true, "netty-nio", "lt", false);
        add("et", "et", "et", 17, true, "netty-epoll", "et (JNA)", false);
        add("et-ffm", "et --binding ffm", "et", 22, true, "netty-epoll", "et --binding ffm", false);
        add("vt", "vt", "vt", 21, true, "", "vt", false);
        add("uring", "uring", "uring", 22, true, "netty-uring", "uring", false);
        add("uring-basic", "uring --uring-mode basic", "uring", 22, true, "netty-uring", "uring basic", false);
        add("uring-multishot", "uring --uring-mode multishot", "uring", 22, true, "netty-uring", "uring multishot", false);
        add("uring-bufring", "uring --uring-mode bufring", "uring", 22, true, "netty-uring", "uring bufring", false);
        add("uring-sqpoll", "uring --uring-mode sqpoll", "uring", 22, true, "netty-uring", "uring sqpoll", false);
        add("lt-loops", "lt --loops " + N, "lt", 17, true, "netty-nio", "lt --loops " + N, false);
        add("et-loops", "et --loops " + N, "et", 17, true, "netty-epoll", "et --loops " + N, false);
        add("mp", "mp", "mp", 17, false, "", "mp --workers " + N, false);
        add("netty-nio", "netty-nio", "netty", 17, false, "", "netty-nio", false);
        add("netty-epoll", "netty-epoll", "netty", 17, false, "", "netty-epoll", false);
        add("netty-uring", "netty-uring", "netty", 17, false, "", "netty-uring", false);
        add("netty-http", "netty-http", "netty", 17, false, "", "netty-http", true);
        add("c", "c", "c", 0, false, "", "C reference", false);

        // what each script or experiment runs when not told otherwise, named after it; the first is the baseline
        select("bench", "lt et mp");
        select("serial", "c lt et");
        select("short-run", "lt et mp");
        select("short-run-extra", "bio vt uring");
        select("long-run", "lt et mp");
        select("syscalls", "lt et mp");
        select("network", "lt et mp");
        select("mistakes", "lt et");
        select("backend", "lt et"); // the event loops, each in every posture (loop, pool, blocking)
        select("backend-thread", "vt"); // a thread per connection, in its one posture (thread)
        select("concurrency", "lt et mp");
        select("architectures", "lt et et-ffm vt lt-loops et-loops mp netty-nio netty-epoll netty-http c");
        select("http", "lt et mp netty-nio netty-epoll netty-uring netty-http");
        select("profile", "lt et et-ffm uring vt mp netty-epoll c");
        select("profile-short", "lt et c");
        select("vt", "lt vt c");
        select("vt-pair", "lt vt"); // exp-vt's keep-alive measures: vt against lt (and vt's knobs)
        select("vt-short", "c lt"); // exp-vt's short connections: lt against c
        select("noise", "lt"); // the A/A twin: two of it, NAME-a and NAME-b, give the noise floor
        select("noise-ab", "lt vt"); // exp-noise's A/B runs: two servers that differ
        select("ffi-references", "lt c"); // exp-ffi: what et on each binding is compared with
        select("uring", "et uring-basic uring-multishot uring-bufring netty-uring");
        select("aot", "lt et et-loops et-ffm");
        select("uring-compare", "et lt c uring-basic uring-multishot uring-bufring netty-uring");
        select("lab7", "lt et vt lt-loops et-loops mp"); // lab 7's sheet: the alternatives beside lt and et, from exp-architectures

        // the shared options that act in some architectures only; the others refuse them, and mp
        // takes them when its workers' architecture does
        actsIn("--sndbuf", "lt et");
        actsIn("--loops", "lt et uring");
        actsIn("--epoll-exclusive", "et");
        actsIn("--mistake", "lt et");
        actsIn("--backend", "lt et vt");
    }

    private ServerCatalog() {
    }

    private static void add(String name, String command, String arch, int minJdk, boolean mpWorker, String peer,
                            String label, boolean httpOnly) {
        SERVERS.put(name, new Server(name, command, arch, minJdk, mpWorker, peer, label, httpOnly));
    }

    private static void select(String name, String servers) {
        List<String> names = List.of(servers.split(" "));
        for (String s : names) server(s); // a selection names catalog entries only
        SELECTIONS.put(name, names);
    }

    private static void actsIn(String option, String archs) {
        ACTS_IN.put(option, List.of(archs.split(" ")));
    }

    /** Every entry, in catalog order. */
    public static List<Server> servers() {
        return List.copyOf(SERVERS.values());
    }

    /** The entry named {@code name}; an IllegalArgumentException naming the known ones if there is none. */
    public static Server server(String name) {
        Server s = SERVERS.get(name);
        if (s == null) throw new IllegalArgumentException("no server named '" + name + "' (known: " + String.join(", ", SERVERS.keySet()) + ")");
        return s;
    }

    /** Whether {@code name} is an entry. */
    public static boolean has(String name) {
        return SERVERS.containsKey(name);
    }

    /** The names a selection runs, in its order. */
    public static List<String> selection(String name) {
        List<String> s = SELECTIONS.get(name);
        if (s == null) throw new IllegalArgumentException("no selection named '" + name + "' (known: " + String.join(", ", SELECTIONS.keySet()) + ")");
        return s;
    }

    /** The selections, by name. */
    public static Set<String> selections() {
        return Collections.unmodifiableSet(SELECTIONS.keySet());
    }

    /** The architectures {@code option} acts in; every architecture when it is not restricted. */
    public static List<String> actsIn(String option) {
        List<String> archs = ACTS_IN.get(option);
        return archs != null ? archs : architectures();
    }

    /** Whether {@code option} acts in some architectures only. */
    public static boolean restricted(String option) {
        return ACTS_IN.containsKey(option);
    }

    /** Whether {@code option} acts in {@code arch}. */
    public static boolean acts(String option, String arch) {
        return actsIn(option).contains(arch);
    }

    /** The architectures of {@code lab-server}, each once, in catalog order. */
    public static List<String> architectures() {
        List<String> archs = new ArrayList<>();
        for (Server s : SERVERS.values()) {
            if (s.labServer() && !archs.contains(s.arch())) archs.add(s.arch());
        }
        return archs;
    }

    /** The names of the entries of {@code arch} ({@code netty}: the Netty peers), in catalog order. */
    public static List<String> named(String arch) {
        List<String> names = new ArrayList<>();
        for (Server s : SERVERS.values()) {
            if (s.arch().equals(arch)) names.add(s.name());
        }
        return names;
    }

    /** The architectures mp's workers can run, in catalog order. */
    public static List<String> workerArchitectures() {
        List<String> archs = new ArrayList<>();
        for (Server s : SERVERS.values()) {
            if (s.mpWorker() && !archs.contains(s.arch())) archs.add(s.arch());
        }
        return archs;
    }

    /** {@code a, b or c}: a list for a person. */
    public static String words(List<String> items, String last) {
        if (items.size() < 2) return String.join("", items);
        return String.join(", ", items.subList(0, items.size() - 1)) + " " + last + " " + items.get(items.size() - 1);
    }
}

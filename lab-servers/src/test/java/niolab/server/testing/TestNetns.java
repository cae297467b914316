package niolab.server.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A network host of the test's own: a network namespace joined to this one by a veth pair,
 * {@code 10.199.N.1} on this side and {@code 10.199.N.2} inside. Per-namespace sysctls (such as
 * {@code net.ipv4.tcp_migrate_req}) can be set inside without touching the machine's own. Needs
 * root and {@code ip} ({@code Capability.NETNS.assume()} first); {@link #close()} removes both.
 *
 * <pre>
 *   try (TestNetns ns = TestNetns.create("net.ipv4.tcp_migrate_req=1")) {
 *       ServerProcess.startExactly(ns.exec(), List.of("mp", "--host", ns.innerAddress(), "--port", "0"));
 *   }
 * </pre>
 */
public final class TestNetns implements AutoCloseable {
    private final String name;
    private final String hostLink;
    private final int subnet;

    private TestNetns(String name, String hostLink, int subnet) {
        this.name = name;
        this.hostLink = hostLink;
        this.subnet = subnet;
    }

    /** Creates the namespace and its link, then sets each {@code name=value} sysctl inside. */
    public static TestNetns create(String... sysctls) throws IOException, InterruptedException {
        int subnet = (int) (ProcessHandle.current().pid() % 250) + 1;
        String name = "niolab-test-" + ProcessHandle.current().pid();
        String inner = "vn" + subnet;
        TestNetns ns = new TestNetns(name, "vh" + subnet, subnet);
        try {
            run("ip", "netns", "add", name);
            run("ip", "link", "add", ns.hostLink, "type", "veth", "peer", "name", inner);
            run("ip", "link", "set", inner, "netns", name);
            run("ip", "addr", "add", "10.199." + subnet + ".1/30", "dev", ns.hostLink);
            run("ip", "link", "set", ns.hostLink, "up");
            run("ip", "netns", "exec", name, "ip", "addr", "add", ns.innerAddress() + "/30", "dev", inner);
            run("ip", "netns", "exec", name, "ip", "link", "set", inner, "up");
            run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up");
            for (String s : sysctls) run("ip", "netns", "exec", name, "sysctl", "-qw", s);
            return ns;
        } catch (IOException | RuntimeException | InterruptedException e) {
            ns.close();
            throw e;
        }
    }

    /** The address of the inside end: servers bind it, clients here connect to it. */
    public String innerAddress() {
        return "10.199." + subnet + ".2";
    }

    /** The command prefix that runs a program inside. */
    public List<String> exec() {
        return List.of("ip", "netns", "exec", name);
    }

    @Override
    public void close() {
        try {
            run("ip", "netns", "del", name); // takes the inner end of the veth, and with it the pair
        } catch (Exception ignored) {
            // not created, or already gone
        }
        try {
            run("ip", "link", "del", hostLink);
        } catch (Exception ignored) {
            // went with the namespace
        }
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + ": no answer in 20 s");
        }
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (p.exitValue() != 0) throw new IOException(String.join(" ", command) + ": " + out);
    }
}

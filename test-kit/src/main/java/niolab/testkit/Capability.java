package niolab.testkit;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What a test may need from the machine and skip without: each is probed once per JVM, and a
 * test skips through {@link #assume} (or {@link #assumeMissing}) so that the skip names it.
 * {@link SkipGuard} then tells a fair skip (the machine lacks it) from an unfair one (the
 * machine has it, yet the test skipped: a build that failed, a check of its own that said no).
 *
 * <pre>
 *   Capability.REDIS_SERVER.assume();                       // skip unless redis-server is on the PATH
 *   Capability.JDK_24.assume("a monitor pins before JDK 24"); // the same, saying what for
 *   Capability.GCC.assume(built, "the C reference did not build: " + log);  // a finer check of the test's own
 *   Capability.JDK_22.assumeMissing("this JVM has FFM");    // a test of what an older JDK says
 * </pre>
 */
public enum Capability {
    IO_URING("io_uring") {
        @Override
        String probe() {
            if (Runtime.version().feature() < 22) return "the lab reaches io_uring through FFM, which needs JDK 22";
            // The kit sits below native-uring in the build, so it asks UringSupport by name.
            try {
                return (String) Class.forName("niolab.uring.UringSupport").getMethod("check").invoke(null);
            } catch (ClassNotFoundException e) {
                return "niolab.uring is not on this module's test class path";
            } catch (ReflectiveOperationException e) {
                Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
                return "UringSupport.check() failed: " + cause;
            }
        }
    },
    GCC("gcc") {
        @Override
        String probe() {
            if (!onPath("cc") && !onPath("gcc")) return "no C compiler (cc or gcc) on the PATH (Debian: apt-get install gcc libc6-dev)";
            return onPath("make") ? null : "no make on the PATH";
        }
    },
    STRACE("strace") {
        @Override
        String probe() {
            if (!onPath("strace")) return "strace is not on the PATH (.ci/run installs it)";
            return exitsZero("strace", "-o", "/dev/null", "true") ? null : "strace may not trace here (ptrace refused)";
        }
    },
    REDIS_SERVER("redis-server") {
        @Override
        String probe() {
            return onPath("redis-server") ? null : "redis-server is not installed (Debian: apt-get install redis-server; .ci/run installs it)";
        }
    },
    ROOT("root") {
        @Override
        String probe() {
            return "root".equals(System.getProperty("user.name")) ? null : "runs as " + System.getProperty("user.name") + ", not root";
        }
    },
    NETNS("network namespaces") {
        @Override
        String probe() {
            if (ROOT.absentBecause() != null) return "making a network namespace needs root";
            if (!onPath("ip")) return "no ip (iproute2) on the PATH";
            return exitsZero("unshare", "--net", "true") ? null : "unshare --net is refused here";
        }
    },
    IPV6_LOOPBACK("IPv6 loopback") {
        @Override
        String probe() {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
                return null;
            } catch (IOException e) {
                return "cannot bind [::1]: " + e.getMessage();
            }
        }
    },
    ENGLISH_LIBC("English libc messages") {
        @Override
        String probe() {
            // The JVM calls setlocale(LC_ALL, ""): strerror speaks the first of these that is set.
            for (String name : new String[] {"LC_ALL", "LC_MESSAGES", "LANG"}) {
                String v = System.getenv(name);
                if (v == null || v.isEmpty()) continue;
                boolean english = v.equals("C") || v.equals("POSIX") || v.startsWith("C.") || v.toLowerCase(Locale.ROOT).startsWith("en");
                return english ? null : name + "=" + v;
            }
            return null;
        }
    },
    THREAD_ALLOCATION("per-thread allocation counter") {
        @Override
        String probe() {
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            return mx.isThreadAllocatedMemorySupported() ? null : "this JVM does not count the bytes each thread allocates";
        }
    },
    JDK_21("JDK 21+") {
        @Override
        String probe() {
            return jdkAtLeast(21);
        }
    },
    JDK_22("JDK 22+") {
        @Override
        String probe() {
            return jdkAtLeast(22);
        }
    },
    JDK_24("JDK 24+") {
        @Override
        String probe() {
            return jdkAtLeast(24);
        }
    },
    JDK_25("JDK 25+") {
        @Override
        String probe() {
            return jdkAtLeast(25);
        }
    };

    /** The capability's name as skips and the summary line print it: {@code [io_uring] ...}. */
    public final String label;
    private boolean probed;
    private String absentBecause;

    Capability(String label) {
        this.label = label;
    }

    /** Why the machine lacks it, or null if it has it. */
    abstract String probe();

    /** Probed on first use, then remembered: null if the machine has it, else why not. */
    public synchronized String absentBecause() {
        if (!probed) {
            absentBecause = probe();
            probed = true;
        }
        return absentBecause;
    }

    public boolean present() {
        return absentBecause() == null;
    }

    /** Skips the calling test unless the machine has it. */
    public void assume() {
        String why = absentBecause();
        if (why != null) throw new CapabilitySkip(this, false, why);
    }

    /** Skips the calling test unless the machine has it, saying what the test needs it for. */
    public void assume(String why) {
        String absent = absentBecause();
        if (absent != null) throw new CapabilitySkip(this, false, why + " (" + absent + ")");
    }

    /**
     * Skips the calling test unless {@code usable}: the test's own check of what it needs of
     * this capability. Where the machine has the capability, a skip here is one the guard fails.
     */
    public void assume(boolean usable, String why) {
        if (!usable) throw new CapabilitySkip(this, false, why);
    }

    /** Skips the calling test where the machine has it: for tests of what a machine without it does. */
    public void assumeMissing(String why) {
        if (present()) throw new CapabilitySkip(this, true, why);
    }

    private static String jdkAtLeast(int feature) {
        int jdk = Runtime.version().feature();
        return jdk >= feature ? null : "this JVM is JDK " + jdk;
    }

    static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) return true;
        }
        return false;
    }

    private static boolean exitsZero(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor(30, TimeUnit.SECONDS)) return p.exitValue() == 0;
            p.destroyForcibly();
            return false;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

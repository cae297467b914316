package niolab.epoll;

import java.lang.reflect.InvocationTargetException;

/**
 * Picks the {@link Syscalls} a loop runs on: {@code --binding jna} (the default) or {@code ffm}.
 * This class is Java 17 and names the FFM binding only as a string, so a JDK 17 process never
 * loads a JDK 22 class, and an FFM process never loads JNA.
 */
public final class Bindings {
    /** The FFM binding's class, compiled only when the build runs on JDK 22 or newer. */
    private static final String FFM_CLASS = "niolab.epoll.ffm.FfmSyscalls";
    private static final int FFM_JDK = 22;

    private Bindings() {
    }

    /** JNA direct mapping: one instance for the process, usable from any thread. */
    public static Syscalls jna() {
        return JnaSyscalls.INSTANCE;
    }

    /**
     * The FFM API's downcalls: a new instance, one per event loop. Its calls allocate nothing on
     * the loop's thread, which it recognises as the one that calls {@code epoll_wait}; any other
     * thread may call it too (to set the loop up, to wake it), at the cost of a ThreadLocal lookup.
     *
     * @throws UnsupportedOperationException on JDK 21 or older, with the one line to print
     */
    public static Syscalls ffm() {
        int feature = Runtime.version().feature();
        if (feature < FFM_JDK) {
            throw new UnsupportedOperationException(
                    "--binding ffm needs JDK " + FFM_JDK + " or newer (this JVM is " + feature + ")");
        }
        try {
            return (Syscalls) Class.forName(FFM_CLASS).getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            // Such as IllegalCallerException when the JVM denies native access to this code.
            if (e.getCause() instanceof RuntimeException) throw (RuntimeException) e.getCause();
            throw new IllegalStateException("cannot create " + FFM_CLASS, e.getCause());
        } catch (ClassNotFoundException e) {
            throw new UnsupportedOperationException(
                    "--binding ffm is not in this build (it was compiled on a JDK older than " + FFM_JDK + ")", e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + FFM_CLASS, e);
        }
    }

    /** {@code --binding NAME}: {@code jna} or {@code ffm}. */
    public static Syscalls named(String name) {
        return checkName(name).equals("jna") ? jna() : ffm();
    }

    /** {@code name} if {@link #named} takes it, before anything is loaded; else an IllegalArgumentException with the line to print. */
    public static String checkName(String name) {
        if (!name.equals("jna") && !name.equals("ffm")) {
            throw new IllegalArgumentException("unknown binding '" + name + "' (expected jna or ffm)");
        }
        return name;
    }
}

package niolab.server.base;

/**
 * Code compiled only on a newer JDK ({@code src/main/java21}, {@code src/main/java22}), reached
 * from a Java 17 command through a Java 17 interface, so that the command loads on any JDK and
 * says in one line why its architecture cannot run. The one way the lab loads such code:
 *
 * <pre>
 *   static final NewerJdkCode&lt;UringRuntime&gt; RUNTIME =
 *           new NewerJdkCode&lt;&gt;("uring", 22, "niolab.server.uring.Jdk22UringRuntime", UringRuntime.class);
 *   String why = RUNTIME.unavailable();   // null, or "uring needs JDK 22 or newer (this JVM is 17)"
 *   RUNTIME.get().newServer(options, mode);
 * </pre>
 *
 * The class is loaded by name once, on first use, and only on a JVM new enough for it.
 */
public final class NewerJdkCode<T> {
    /** What needs it, as the error line names it ({@code vt}, {@code uring}). */
    private final String what;
    /** The oldest JDK it runs on: the source root it is compiled from. */
    public final int minJdk;
    private final String className;
    private final Class<T> api;
    private T instance;
    private boolean loaded;

    public NewerJdkCode(String what, int minJdk, String className, Class<T> api) {
        this.what = what;
        this.minJdk = minJdk;
        this.className = className;
        this.api = api;
    }

    /** This JVM is older than {@link #minJdk}. */
    public boolean jvmTooOld() {
        return Runtime.version().feature() < minJdk;
    }

    /** Why this JVM cannot run it (too old, or this build was compiled without it), in one line; null if it can. */
    public String unavailable() {
        if (jvmTooOld()) return what + " needs JDK " + minJdk + " or newer (this JVM is " + Runtime.version().feature() + ")";
        if (get() == null) {
            return "this build has no " + what + ": it was compiled on a JDK older than " + minJdk + "; rebuild on JDK "
                    + minJdk + " or newer";
        }
        return null;
    }

    /** The instance, or null on a JVM older than {@link #minJdk} or from a build without the class. */
    public synchronized T get() {
        if (!loaded) {
            loaded = true;
            instance = load();
        }
        return instance;
    }

    private T load() {
        if (jvmTooOld()) return null;
        try {
            return api.cast(Class.forName(className).getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }
}

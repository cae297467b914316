package niolab.testkit;

import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * Turns an unfair skip into a failure of one line, when on ({@code -Dniolab.skipGuard=true}, or
 * {@code CI=true} in the environment: .ci/run sets it). A skip is fair when it names a
 * {@link Capability} the machine lacks, or one a test of an older JDK needs absent; any other
 * skip fails: one for a capability the machine has (a finer check of the test's own said no),
 * or one that names no capability. Registered for every test through META-INF/services
 * (the build turns JUnit's extension autodetection on).
 */
public final class SkipGuard implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {
    static final boolean ON = Boolean.getBoolean("niolab.skipGuard") || "true".equals(System.getenv("CI"));

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw judge(ON, name(context), thrown);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw judge(ON, name(context), thrown);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        throw judge(ON, name(context), thrown);
    }

    /** What the test ends with: the skip itself if fair (or the guard is off), else a failure saying why. */
    static Throwable judge(boolean on, String test, Throwable thrown) {
        if (!on || !(thrown instanceof TestAbortedException)) return thrown;
        if (!(thrown instanceof CapabilitySkip)) {
            return new AssertionError("skip guard: " + test + " skipped without naming a capability: " + thrown.getMessage());
        }
        CapabilitySkip skip = (CapabilitySkip) thrown;
        if (skip.becausePresent || !skip.capability.present()) return thrown;
        return new AssertionError("skip guard: " + test + " skipped for " + skip.capability.label + ", which this machine has: " + thrown.getMessage());
    }

    private static String name(ExtensionContext context) {
        return context.getRequiredTestClass().getSimpleName() + context.getTestMethod().map(Method::getName).map(m -> "." + m).orElse("");
    }
}

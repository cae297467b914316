package niolab.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test of the extended tier: {@code make test-extended} runs it (and CI, on every JDK), {@code make test}
 * does not, so that the everyday suite stays within minutes on two cores. The tier holds a
 * variant's run of contract suites that {@code make test} already runs on the architecture's
 * default form (another uring mode, {@code --loops 2}, each backend posture, mp over other
 * workers, the other Netty transports) and the course's end-to-end gradings of a built handout.
 * A test selected by name ({@code -Dtest=...}, as the grader selects checkpoints) runs whatever
 * its tier: the parent pom filters by tier only when no test is named.
 */
@Tag(Extended.TAG)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Extended {
    /** The JUnit tag: the parent pom's {@code test.groups} selects by it. */
    String TAG = "extended";
}

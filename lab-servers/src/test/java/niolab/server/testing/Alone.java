package niolab.server.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test whose symptom is a loop's use of the CPU (events per wait, loops woken per connection):
 * beside other test forks on two cores a correct server batches like a broken one, so a whole
 * run of lab-servers' tests runs these after the rest, in one fork (lab-servers' pom, profile
 * symptoms-alone). A test named with {@code -Dtest=...}, as the grader names checkpoints, runs
 * where it is asked to.
 */
@Tag(Alone.TAG)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Alone {
    /** The JUnit tag: lab-servers' pom selects by it. */
    String TAG = "alone";
}

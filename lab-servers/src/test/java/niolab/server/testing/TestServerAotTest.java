package niolab.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Test;

/**
 * The servers tests start on JDK 25 load the lab's own classes from the module's AOT cache,
 * already linked; turned off (-Dniolab.server.aot=false, or other test JVM options), they start
 * from the class path as it is.
 */
class TestServerAotTest {
    @Test
    void aTestServerLoadsTheLabsClassesFromTheCacheUnlessTurnedOff() throws Exception {
        Capability.JDK_25.assume("the servers' AOT cache is written in one step from JDK 25");
        boolean turnedOff = !Boolean.parseBoolean(System.getProperty("niolab.server.aot", "true"))
                || !ServerProcess.DEFAULT_TEST_JVM_OPTIONS;
        TestServerAot.Setup aot = TestServerAot.setup("niolab.server.LabServer", ServerProcess.testJvmOptions(), !turnedOff);
        try (ServerProcess p = ServerProcess.startWithJvmOptions(List.of("-Xlog:aot=info", "-Xlog:class+load=info"), "lt")) {
            if (turnedOff) {
                assertThat(aot.jvmOptions()).isEmpty();
                assertThat(aot.classPath()).isEqualTo(System.getProperty("java.class.path"));
                assertThat(p.output()).contains("niolab.server.LabServer source: file:").doesNotContain("Using AOT-linked classes: true");
                return;
            }
            assertThat(aot.why()).as("why servers start without the cache").isNull();
            assertThat(p.output()).contains("Using AOT-linked classes: true")
                    .contains("niolab.server.LabServer source: shared objects file")
                    .contains("niolab.server.lt.LevelTriggeredServer source: shared objects file");
        }
    }
}

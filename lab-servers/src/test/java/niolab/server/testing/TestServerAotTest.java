package niolab.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import niolab.testkit.Capability;
import org.junit.jupiter.api.Test;

/** The servers tests start on JDK 25 load the lab's own classes from the module's AOT cache, already linked. */
class TestServerAotTest {
    @Test
    void aTestServerLoadsTheLabsClassesFromTheCache() throws Exception {
        Capability.JDK_25.assume("the servers' AOT cache is written in one step from JDK 25");
        TestServerAot.Setup aot = TestServerAot.setup("niolab.server.LabServer", ServerProcess.testJvmOptions(), true);
        assertThat(aot.why()).as("why servers start without the cache").isNull();
        try (ServerProcess p = ServerProcess.startWithJvmOptions(List.of("-Xlog:aot=info", "-Xlog:class+load=info"), "lt")) {
            assertThat(p.output()).contains("Using AOT-linked classes: true")
                    .contains("niolab.server.LabServer source: shared objects file")
                    .contains("niolab.server.lt.LevelTriggeredServer source: shared objects file");
        }
    }
}

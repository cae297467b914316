package niolab.server;

import java.util.List;
import niolab.server.testing.CReference;
import niolab.server.testing.ServerProcess;

/** The C reference server keeps the echo contract: the ceiling is measured on the same rules. */
class CReferenceEchoContractTest extends EchoContractTest {
    /** As users start it: {@code lab-server c}. */
    @Override
    protected List<String> arch() {
        return List.of("c");
    }

    /** Not a JVM: the binary itself, built first if needed. */
    @Override
    protected ServerProcess startServer() throws Exception {
        return CReference.start();
    }
}

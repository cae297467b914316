package niolab.server;

import java.util.List;
import niolab.server.testing.CReference;
import niolab.server.testing.ServerProcess;

/** The C reference server keeps the HTTP /ping contract. */
class CReferenceHttpContractTest extends HttpContractTest {
    /** As users start it: {@code lab-server c}. */
    @Override
    protected List<String> arch() {
        return List.of("c");
    }

    /** Not a JVM: the binary itself, built first if needed. */
    @Override
    protected ServerProcess startServer(List<String> extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("--protocol", "http"));
        args.addAll(extra);
        return CReference.start(args.toArray(new String[0]));
    }
}

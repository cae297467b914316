package niolab.server;

import niolab.server.testing.CReference;
import niolab.server.testing.ServerProcess;

/** The C reference server keeps the HTTP /ping contract. */
class CReferenceHttpContractTest extends HttpContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return CReference.start("--protocol", "http");
    }
}

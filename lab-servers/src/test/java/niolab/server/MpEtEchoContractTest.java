package niolab.server;

import niolab.server.testing.ServerProcess;

class MpEtEchoContractTest extends EchoContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("mp", "--workers", "2", "--worker-arch", "et");
    }
}

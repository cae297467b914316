package niolab.server;

import niolab.server.testing.ServerProcess;

class MpEchoContractTest extends EchoContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("mp", "--workers", "2");
    }
}

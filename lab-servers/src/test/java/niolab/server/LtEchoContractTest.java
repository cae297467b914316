package niolab.server;

import niolab.server.testing.ServerProcess;

class LtEchoContractTest extends EchoContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("lt");
    }
}

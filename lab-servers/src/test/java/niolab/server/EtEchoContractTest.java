package niolab.server;

import niolab.server.testing.ServerProcess;

class EtEchoContractTest extends EchoContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("et");
    }
}

package niolab.server;

import niolab.server.testing.ServerProcess;

class EtHttpContractTest extends HttpContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("et", "--protocol", "http");
    }
}

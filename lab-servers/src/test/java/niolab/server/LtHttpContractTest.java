package niolab.server;

import niolab.server.testing.ServerProcess;

class LtHttpContractTest extends HttpContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("lt", "--protocol", "http");
    }
}

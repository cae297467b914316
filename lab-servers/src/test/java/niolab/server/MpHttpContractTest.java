package niolab.server;

import niolab.server.testing.ServerProcess;

class MpHttpContractTest extends HttpContractTest {
    @Override
    protected ServerProcess startServer() throws Exception {
        return ServerProcess.start("mp", "--workers", "2", "--protocol", "http");
    }
}

package niolab.server;

import niolab.server.testing.ServerUnderTest;

class BackendLtLoopContractTest extends BackendContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("lt", "--backend-mode", "loop");
    }
}

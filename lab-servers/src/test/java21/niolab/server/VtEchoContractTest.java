package niolab.server;

import niolab.server.testing.ServerUnderTest;

class VtEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("vt");
    }
}

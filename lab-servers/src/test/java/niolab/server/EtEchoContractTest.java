package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et");
    }
}

package niolab.server;

import niolab.server.testing.ServerUnderTest;

class BioEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("bio");
    }
}

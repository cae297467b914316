package niolab.server;

import niolab.server.testing.ServerUnderTest;

class EtCliContractTest extends CliContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("et");
    }
}

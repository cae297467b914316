package niolab.server;

import niolab.server.testing.ServerUnderTest;

class LtCliContractTest extends CliContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("lt");
    }
}

package niolab.server;

import niolab.server.testing.ServerUnderTest;

class BioCliContractTest extends CliContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("bio");
    }
}

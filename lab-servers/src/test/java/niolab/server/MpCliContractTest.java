package niolab.server;

import niolab.server.testing.ServerUnderTest;

class MpCliContractTest extends CliContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("mp", "--workers", "2").label("mp: 2 x lt");
    }
}

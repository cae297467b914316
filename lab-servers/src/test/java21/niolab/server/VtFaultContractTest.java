package niolab.server;

import niolab.server.testing.ServerUnderTest;

class VtFaultContractTest extends FaultContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("vt");
    }

    /** No {@code --sndbuf} here: it is lt's and et's. */
    @Override
    protected boolean hasSndbuf() {
        return false;
    }
}

package niolab.server;

import niolab.server.testing.ServerUnderTest;

class UringFaultContractTest extends FaultContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring");
    }

    /** No {@code --sndbuf} here: it is lt's and et's. */
    @Override
    protected boolean hasSndbuf() {
        return false;
    }
}

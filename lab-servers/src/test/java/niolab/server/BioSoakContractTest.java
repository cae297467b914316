package niolab.server;

import niolab.server.testing.ServerUnderTest;

/** bio under the echo soak: a thread per connection, blocking writes (it has no {@code --sndbuf}). */
class BioSoakContractTest extends SoakContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("bio");
    }

    @Override
    protected boolean hasSndbuf() {
        return false;
    }
}

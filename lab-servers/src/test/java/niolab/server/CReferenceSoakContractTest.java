package niolab.server;

import niolab.server.testing.CReference;
import niolab.server.testing.ServerUnderTest;

/** The C reference server under the echo soak: it prints no counters and has no {@code --sndbuf}. */
class CReferenceSoakContractTest extends SoakContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return CReference.UNDER_TEST;
    }

    @Override
    protected boolean hasSndbuf() {
        return false;
    }

    @Override
    protected boolean hasCounters() {
        return false;
    }
}

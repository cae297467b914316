package niolab.server;

import niolab.server.testing.CReference;
import niolab.server.testing.ServerUnderTest;

/** The C reference server keeps the echo contract: the ceiling is measured on the same rules. */
class CReferenceEchoContractTest extends EchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return CReference.UNDER_TEST;
    }
}

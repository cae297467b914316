package niolab.server;

import niolab.server.testing.CReference;
import niolab.server.testing.ServerUnderTest;

/** The C reference server keeps the HTTP /ping contract. */
class CReferenceHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return CReference.UNDER_TEST;
    }
}

package niolab.server;

class BackendEtAllocationTest extends BackendAllocationTest {
    @Override
    protected String arch() {
        return "et";
    }
}

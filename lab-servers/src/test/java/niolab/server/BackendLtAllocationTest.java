package niolab.server;

class BackendLtAllocationTest extends BackendAllocationTest {
    @Override
    protected String arch() {
        return "lt";
    }
}

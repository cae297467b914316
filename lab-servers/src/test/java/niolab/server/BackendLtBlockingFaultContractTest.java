package niolab.server;

class BackendLtBlockingFaultContractTest extends BackendFaultContractTest {
    @Override
    protected String arch() {
        return "lt";
    }

    @Override
    protected String mode() {
        return "blocking";
    }
}

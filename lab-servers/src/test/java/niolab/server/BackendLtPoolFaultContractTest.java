package niolab.server;

class BackendLtPoolFaultContractTest extends BackendFaultContractTest {
    @Override
    protected String arch() {
        return "lt";
    }

    @Override
    protected String mode() {
        return "pool";
    }
}

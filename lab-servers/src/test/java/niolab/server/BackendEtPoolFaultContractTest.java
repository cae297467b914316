package niolab.server;

class BackendEtPoolFaultContractTest extends BackendFaultContractTest {
    @Override
    protected String arch() {
        return "et";
    }

    @Override
    protected String mode() {
        return "pool";
    }
}

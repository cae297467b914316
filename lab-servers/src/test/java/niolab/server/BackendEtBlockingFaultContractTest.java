package niolab.server;

class BackendEtBlockingFaultContractTest extends BackendFaultContractTest {
    @Override
    protected String arch() {
        return "et";
    }

    @Override
    protected String mode() {
        return "blocking";
    }
}

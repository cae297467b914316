package niolab.server;

class BackendEtLoopFaultContractTest extends BackendFaultContractTest {
    @Override
    protected String arch() {
        return "et";
    }

    @Override
    protected String mode() {
        return "loop";
    }
}

package niolab.server;

class BackendLtLoopFaultContractTest extends BackendFaultContractTest {
    @Override
    protected String arch() {
        return "lt";
    }

    @Override
    protected String mode() {
        return "loop";
    }
}

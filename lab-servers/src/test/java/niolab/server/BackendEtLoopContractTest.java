package niolab.server;

class BackendEtLoopContractTest extends BackendContractTest {
    @Override
    protected String arch() {
        return "et";
    }

    @Override
    protected String mode() {
        return "loop";
    }
}

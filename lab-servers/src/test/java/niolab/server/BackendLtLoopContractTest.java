package niolab.server;

class BackendLtLoopContractTest extends BackendContractTest {
    @Override
    protected String arch() {
        return "lt";
    }

    @Override
    protected String mode() {
        return "loop";
    }
}

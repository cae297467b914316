package niolab.server;

class BackendLtPoolContractTest extends BackendContractTest {
    @Override
    protected String arch() {
        return "lt";
    }

    @Override
    protected String mode() {
        return "pool";
    }
}

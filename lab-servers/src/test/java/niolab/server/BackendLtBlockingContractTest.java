package niolab.server;

class BackendLtBlockingContractTest extends BackendContractTest {
    @Override
    protected String arch() {
        return "lt";
    }

    @Override
    protected String mode() {
        return "blocking";
    }
}

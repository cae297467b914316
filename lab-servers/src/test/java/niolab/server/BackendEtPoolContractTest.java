package niolab.server;

class BackendEtPoolContractTest extends BackendContractTest {
    @Override
    protected String arch() {
        return "et";
    }

    @Override
    protected String mode() {
        return "pool";
    }
}

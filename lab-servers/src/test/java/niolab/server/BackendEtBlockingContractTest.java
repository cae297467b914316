package niolab.server;

class BackendEtBlockingContractTest extends BackendContractTest {
    @Override
    protected String arch() {
        return "et";
    }

    @Override
    protected String mode() {
        return "blocking";
    }
}

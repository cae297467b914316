package niolab.server;

class EtCliTest extends ServerCliTest {
    @Override
    protected String arch() {
        return "et";
    }
}

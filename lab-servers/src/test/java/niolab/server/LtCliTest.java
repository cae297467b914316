package niolab.server;

class LtCliTest extends ServerCliTest {
    @Override
    protected String arch() {
        return "lt";
    }
}

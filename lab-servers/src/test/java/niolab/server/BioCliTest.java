package niolab.server;

class BioCliTest extends ServerCliTest {
    @Override
    protected String arch() {
        return "bio";
    }
}

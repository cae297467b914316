package niolab.server;

import java.util.List;

class EtHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et");
    }
}

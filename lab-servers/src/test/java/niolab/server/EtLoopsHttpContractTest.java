package niolab.server;

import java.util.List;

class EtLoopsHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et", "--loops", "2");
    }
}

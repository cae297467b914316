package niolab.server;

import java.util.List;

class LtHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("lt");
    }
}

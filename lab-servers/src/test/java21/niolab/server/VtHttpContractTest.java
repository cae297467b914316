package niolab.server;

import java.util.List;

class VtHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("vt");
    }
}

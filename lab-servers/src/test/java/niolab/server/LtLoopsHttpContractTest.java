package niolab.server;

import java.util.List;

class LtLoopsHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("lt", "--loops", "2");
    }
}

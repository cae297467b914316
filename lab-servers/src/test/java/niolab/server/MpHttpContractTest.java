package niolab.server;

import java.util.List;

class MpHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("mp", "--workers", "2");
    }
}

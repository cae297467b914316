package niolab.server;

import java.util.List;

class LtLoopsFaultContractTest extends FaultContractTest {
    @Override
    protected List<String> arch() {
        return List.of("lt", "--loops", "2");
    }
}

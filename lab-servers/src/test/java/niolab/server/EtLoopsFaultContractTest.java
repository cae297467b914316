package niolab.server;

import java.util.List;

class EtLoopsFaultContractTest extends FaultContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et", "--loops", "2");
    }
}

package niolab.server;

import java.util.List;

class LtFaultContractTest extends FaultContractTest {
    @Override
    protected List<String> arch() {
        return List.of("lt");
    }
}

package niolab.server;

import java.util.List;

class VtFaultContractTest extends FaultContractTest {
    @Override
    protected List<String> arch() {
        return List.of("vt");
    }
}

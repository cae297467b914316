package niolab.server;

import java.util.List;

class EtFaultContractTest extends FaultContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et");
    }
}

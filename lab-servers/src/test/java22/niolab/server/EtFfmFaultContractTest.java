package niolab.server;

import java.util.List;

class EtFfmFaultContractTest extends FaultContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et", "--binding", "ffm");
    }
}

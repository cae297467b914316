package niolab.server;

import java.util.List;

class EtFfmAllocationContractTest extends AllocationContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et", "--binding", "ffm");
    }
}

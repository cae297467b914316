package niolab.server;

import java.util.List;

class EtAllocationContractTest extends AllocationContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et");
    }
}

package niolab.server;

import java.util.List;

class UringBasicAllocationContractTest extends AllocationContractTest {
    @Override
    protected List<String> arch() {
        return UringArch.of("uring", "--uring-mode", "basic");
    }
}

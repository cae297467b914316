package niolab.server;

import java.util.List;

class UringBufringAllocationContractTest extends AllocationContractTest {
    @Override
    protected List<String> arch() {
        return UringArch.of("uring", "--uring-mode", "bufring");
    }
}

package niolab.server;

import java.util.List;

class UringMultishotAllocationContractTest extends AllocationContractTest {
    @Override
    protected List<String> arch() {
        return UringArch.of("uring", "--uring-mode", "multishot");
    }
}

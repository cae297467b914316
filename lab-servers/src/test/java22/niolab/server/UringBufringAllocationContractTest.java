package niolab.server;

import niolab.server.testing.ServerUnderTest;

class UringBufringAllocationContractTest extends AllocationContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring", "--uring-mode", "bufring");
    }
}

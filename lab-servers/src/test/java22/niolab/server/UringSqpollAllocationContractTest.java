package niolab.server;

import niolab.server.testing.ServerUnderTest;
import niolab.testkit.Extended;

@Extended
class UringSqpollAllocationContractTest extends AllocationContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring", "--uring-mode", "sqpoll");
    }
}

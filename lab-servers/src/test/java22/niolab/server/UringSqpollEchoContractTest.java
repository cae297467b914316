package niolab.server;

import niolab.server.testing.ServerUnderTest;

class UringSqpollEchoContractTest extends UringEchoContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring", "--uring-mode", "sqpoll");
    }
}

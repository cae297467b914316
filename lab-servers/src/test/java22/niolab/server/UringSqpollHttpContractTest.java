package niolab.server;

import niolab.server.testing.ServerUnderTest;

class UringSqpollHttpContractTest extends HttpContractTest {
    @Override
    protected ServerUnderTest serverUnderTest() {
        return UringArch.of("uring", "--uring-mode", "sqpoll");
    }
}

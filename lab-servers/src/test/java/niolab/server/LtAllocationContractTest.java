package niolab.server;

import niolab.server.testing.ServerUnderTest;

class LtAllocationContractTest extends AllocationContractTest {
    /**
     * java.nio allocates per accepted connection: the SocketChannel, its SelectionKey, the
     * peer's InetSocketAddress; lt's own state (an attachment, and
     * for HTTP the parser) adds a few hundred bytes. Per request it allocates nothing.
     */
    @Override
    protected ServerUnderTest serverUnderTest() {
        return ServerUnderTest.of("lt").bytesPerConnection(1536);
    }
}

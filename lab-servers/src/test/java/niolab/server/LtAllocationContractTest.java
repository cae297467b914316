package niolab.server;

import java.util.List;

class LtAllocationContractTest extends AllocationContractTest {
    @Override
    protected List<String> arch() {
        return List.of("lt");
    }

    /**
     * java.nio allocates per accepted connection: the SocketChannel, its SelectionKey, the
     * peer's InetSocketAddress, about 0.9 KB measured here; lt's own state (an attachment, and
     * for HTTP the parser) adds a few hundred bytes. Per request it allocates nothing.
     */
    @Override
    protected long bytesPerConnection() {
        return 1536;
    }
}

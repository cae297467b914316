package niolab.server;

import java.util.List;

class UringLoopsEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return UringArch.of("uring", "--loops", "2");
    }
}

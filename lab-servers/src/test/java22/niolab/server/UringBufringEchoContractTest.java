package niolab.server;

import java.util.List;

class UringBufringEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return UringArch.of("uring", "--uring-mode", "bufring");
    }
}

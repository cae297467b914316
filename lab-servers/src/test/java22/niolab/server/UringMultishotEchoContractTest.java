package niolab.server;

import java.util.List;

class UringMultishotEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return UringArch.of("uring", "--uring-mode", "multishot");
    }
}

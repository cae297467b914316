package niolab.server;

import java.util.List;

class UringBufringHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return UringArch.of("uring", "--uring-mode", "bufring");
    }
}

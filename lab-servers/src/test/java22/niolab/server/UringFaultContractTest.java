package niolab.server;

import java.util.List;

class UringFaultContractTest extends FaultContractTest {
    @Override
    protected List<String> arch() {
        return UringArch.of("uring");
    }
}

package niolab.server;

import java.util.List;

class EtLoopsEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et", "--loops", "2");
    }
}

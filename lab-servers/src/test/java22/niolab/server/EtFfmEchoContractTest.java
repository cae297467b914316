package niolab.server;

import java.util.List;

class EtFfmEchoContractTest extends EchoContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et", "--binding", "ffm");
    }
}

package niolab.server;

import java.util.List;

class EtFfmHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("et", "--binding", "ffm");
    }
}

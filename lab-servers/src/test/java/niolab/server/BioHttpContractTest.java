package niolab.server;

import java.util.List;

class BioHttpContractTest extends HttpContractTest {
    @Override
    protected List<String> arch() {
        return List.of("bio");
    }
}

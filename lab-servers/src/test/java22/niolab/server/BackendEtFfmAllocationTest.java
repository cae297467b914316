package niolab.server;

import java.util.List;

class BackendEtFfmAllocationTest extends BackendAllocationTest {
    @Override
    protected String arch() {
        return "et";
    }

    @Override
    protected List<String> variant() {
        return List.of("--binding", "ffm");
    }
}

package niolab.server;

import java.util.List;

class MpCliTest extends ServerCliTest {
    @Override
    protected String arch() {
        return "mp";
    }

    @Override
    protected List<String> baseArgs() {
        return List.of("--workers", "2");
    }

    @Override
    protected String expectedLabel() {
        return "mp: 2 x lt, echo";
    }
}

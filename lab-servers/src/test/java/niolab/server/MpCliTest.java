package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

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

    /** The master restarts a worker that fails before it is ready, so its last line, not its only one, says why. */
    @Override
    protected void assertPortInUseSaid(String output, String reason) {
        String[] lines = output.split("\n");
        assertThat(lines[lines.length - 1]).startsWith("error: ").endsWith("(it said: " + reason + ")");
    }
}

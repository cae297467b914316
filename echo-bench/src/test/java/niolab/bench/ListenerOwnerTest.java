package niolab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** compare's probe counts a listener only when the started process tree holds it. */
class ListenerOwnerTest {
    @Test
    void aListenerBelongsToTheProcessThatHoldsItAndToNoOther() throws Exception {
        long self = ProcessHandle.current().pid();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = listener.getLocalPort();
            assertThat(ListenerOwner.listeningInodes(port)).hasSize(1);
            assertThat(ListenerOwner.owns(self, port)).isTrue();
            Process other = new ProcessBuilder("sleep", "30").start();
            try {
                assertThat(ListenerOwner.owns(other.pid(), port)).as("a process that does not hold the listener").isFalse();
            } finally {
                other.destroy();
                other.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aPortNobodyListensOnIsOwnedByNobody() throws Exception {
        int port = ForkedServer.freePort();
        assertThat(ListenerOwner.listeningInodes(port)).isEmpty();
        assertThat(ListenerOwner.owns(ProcessHandle.current().pid(), port)).isFalse();
    }
}

package niolab.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import niolab.server.base.Counters;
import niolab.server.base.EventLoop;
import niolab.server.base.LoopConnection;
import niolab.server.base.LoopDuty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The skeleton runs a loop's {@link LoopDuty}: started after listen, around every wait (the drain's too), closed first. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LoopDutyTest {
    /** The duty wants the loop back within this many ms. */
    private static final long DUTY_MS = 7;

    @Test
    void theDutyStartsAfterListenBoundsAndFollowsEveryWaitAndClosesBeforeTheConnections() throws Exception {
        List<String> calls = new ArrayList<>();
        ScriptedLoop loop = new ScriptedLoop(calls);
        loop.bind();
        loop.run();
        assertThat(calls).containsExactly(
                "listen", "start",
                "boundWait -1", "wait 7", "afterWait", // a connection opens
                "boundWait -1", "wait 7", "afterWait", // stop()
                "closeListener",
                "boundWait 50", "wait 7", "afterWait", // the drain's wait: the connection closes
                "close", "closeEverything");
    }

    /** A loop whose first wait opens a connection, whose second stops it, and whose drain's wait closes the connection. */
    private static final class ScriptedLoop extends EventLoop {
        private final List<String> calls;
        private int waits;

        ScriptedLoop(List<String> calls) {
            super("scripted", LabServer.config("lt"), new Counters("waits"));
            this.calls = calls;
            addDuty(new LoopDuty() {
                @Override
                public void start() {
                    calls.add("start");
                }

                @Override
                public long boundWait(long loopMs) {
                    calls.add("boundWait " + loopMs);
                    return loopMs < 0 || loopMs > DUTY_MS ? DUTY_MS : loopMs;
                }

                @Override
                public void afterWait() {
                    calls.add("afterWait");
                }

                @Override
                public void close() {
                    calls.add("close");
                }
            });
        }

        @Override
        protected InetSocketAddress listen() {
            calls.add("listen");
            return new InetSocketAddress(0);
        }

        @Override
        protected void waitAndDispatch(long timeoutMs) {
            calls.add("wait " + timeoutMs);
            switch (++waits) {
                case 1 -> opened();
                case 2 -> stop();
                default -> closed();
            }
        }

        @Override
        protected void resumeAccepting() {
        }

        @Override
        protected void closeListener() {
            calls.add("closeListener");
        }

        @Override
        protected int closeIdleConnections() {
            return 0;
        }

        @Override
        protected void closeLingering(LoopConnection c) {
        }

        @Override
        protected void closeEverything() {
            calls.add("closeEverything");
        }

        @Override
        protected void wakeUp() {
        }
    }
}

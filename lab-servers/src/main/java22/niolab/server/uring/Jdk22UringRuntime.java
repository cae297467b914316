package niolab.server.uring;

import niolab.server.base.Protocol;
import niolab.server.base.Server;
import niolab.server.base.ServerConfig;
import niolab.uring.UringCapabilities;
import niolab.uring.UringSupport;

/** {@link UringRuntime} on JDK 22+: what {@link UringSupport} found, and the servers. Loaded by name by {@link UringCommand}. */
public final class Jdk22UringRuntime implements UringRuntime {
    @Override
    public String unavailableReason() {
        return UringSupport.check();
    }

    /** bufring, else multishot, else basic: each step needs what the one before it needs (sqpoll is asked for, never chosen: its thread takes a core). */
    @Override
    public UringMode bestMode() {
        if (unsupportedReason(UringMode.BUFRING) == null) return UringMode.BUFRING;
        if (unsupportedReason(UringMode.MULTISHOT) == null) return UringMode.MULTISHOT;
        return UringMode.BASIC;
    }

    @Override
    public String unsupportedReason(UringMode mode) {
        UringCapabilities caps = UringSupport.capabilities();
        if (mode == UringMode.BASIC) return null;
        if (!caps.multishotAccept() || !caps.multishotRecv()) {
            return "--uring-mode " + mode + " needs multishot accept and recv (Linux 6.0+); this is Linux " + caps.kernel();
        }
        if (mode == UringMode.MULTISHOT && !caps.provideBuffers()) {
            return "--uring-mode multishot needs IORING_OP_PROVIDE_BUFFERS, which this kernel lacks";
        }
        if ((mode == UringMode.BUFRING || mode == UringMode.SQPOLL) && !caps.bufferRing()) {
            return "--uring-mode " + mode + " needs buffer rings (Linux 5.19+), which this kernel refused";
        }
        return mode == UringMode.SQPOLL ? UringSupport.sqPollReason() : null;
    }

    @Override
    public Server newServer(ServerConfig config, UringMode mode) {
        UringCapabilities caps = UringSupport.capabilities();
        return config.protocol() == Protocol.HTTP ? new UringHttpServer(config, mode, caps) : new UringEchoServer(config, mode, caps);
    }
}

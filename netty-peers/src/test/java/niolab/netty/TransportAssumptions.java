package niolab.netty;

import niolab.testkit.Capability;

/** Tests of a native transport are skipped, with the reason, where it cannot run. */
final class TransportAssumptions {
    private TransportAssumptions() {
    }

    /** Netty's io_uring runs on JDK 17 too (JNI): its own check decides, the guard judges by the lab's probe. */
    static void assumeRunsHere(Transport transport) {
        Capability.IO_URING.assume(transport.unavailabilityCause() == null, transport.unavailableMessage());
    }
}

package niolab.netty;

import org.junit.jupiter.api.Assumptions;

/** Tests of a native transport are skipped, with the reason, where it cannot run. */
final class TransportAssumptions {
    private TransportAssumptions() {
    }

    static void assumeRunsHere(Transport transport) {
        Assumptions.assumeTrue(transport.unavailabilityCause() == null, transport::unavailableMessage);
    }
}

package niolab.uring;

import static niolab.uring.IoUringConstants.IORING_OP_PROVIDE_BUFFERS;
import static niolab.uring.IoUringConstants.describeFeatures;
import static niolab.uring.IoUringConstants.describeSetupFlags;

/**
 * What io_uring offers on this machine, found once by {@link UringSupport}: the best setup flags
 * the kernel accepted, the features it reported, the opcodes it supports, and the three
 * networking features the lab's modes are built on, each tried for real.
 *
 * @param kernel          the kernel release ({@code uname -r})
 * @param setupFlags      IORING_SETUP_* the kernel accepted, the most capable set first tried
 * @param features        IORING_FEAT_* from io_uring_setup
 * @param probe           the opcodes IORING_REGISTER_PROBE reported
 * @param multishotAccept ACCEPT with IORING_ACCEPT_MULTISHOT (5.19)
 * @param multishotRecv   RECV with IORING_RECV_MULTISHOT (6.0)
 * @param recvByteLimit   a multishot recv that ends after a byte limit (sqe->optlen, 6.17)
 * @param bufferRing      IORING_REGISTER_PBUF_RING (5.19)
 */
public record UringCapabilities(String kernel, int setupFlags, int features, UringProbe probe,
        boolean multishotAccept, boolean multishotRecv, boolean recvByteLimit, boolean bufferRing) {

    /** Buffers given by SQE (IORING_OP_PROVIDE_BUFFERS, 5.7), the older way to feed buffer selection. */
    public boolean provideBuffers() {
        return probe.supports(IORING_OP_PROVIDE_BUFFERS);
    }

    /** One line for a ready line or a report's environment section. */
    public String describe() {
        return "io_uring on Linux " + kernel
                + ": setup " + describeSetupFlags(setupFlags)
                + "; features " + describeFeatures(features)
                + "; multishot accept " + yesNo(multishotAccept)
                + ", multishot recv " + yesNo(multishotRecv)
                + " (byte limit " + yesNo(recvByteLimit) + ")"
                + ", buffer ring " + yesNo(bufferRing)
                + ", provide buffers " + yesNo(provideBuffers())
                + "; " + probe;
    }

    private static String yesNo(boolean b) {
        return b ? "yes" : "no";
    }
}

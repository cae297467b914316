package niolab.uring;

/** The ways a ring can receive: where the bytes go, and whether one SQE serves many reads. */
enum RecvMode {
    /** One recv SQE per read, into the connection's own buffer (the basic mode). */
    SINGLE(false, false),
    /** One recv SQE per read, into a buffer the kernel takes from a buffer ring when data arrives. */
    SINGLE_BUFRING(false, true),
    /** Multishot recv; buffers given to the kernel with PROVIDE_BUFFERS SQEs. */
    MULTISHOT_PROVIDED(true, true),
    /** Multishot recv; buffers given back through a registered buffer ring. */
    MULTISHOT_BUFRING(true, true);

    final boolean multishot;
    final boolean providedBuffers;

    RecvMode(boolean multishot, boolean providedBuffers) {
        this.multishot = multishot;
        this.providedBuffers = providedBuffers;
    }

    boolean bufferRing() {
        return this == SINGLE_BUFRING || this == MULTISHOT_BUFRING;
    }

    /** Why this kernel cannot run the mode, or null. */
    String unsupportedBy(UringCapabilities caps) {
        if (multishot && !(caps.multishotAccept() && caps.multishotRecv())) return "no multishot accept/recv on this kernel";
        if (bufferRing() && !caps.bufferRing()) return "no buffer ring on this kernel";
        if (this == MULTISHOT_PROVIDED && !caps.provideBuffers()) return "no PROVIDE_BUFFERS on this kernel";
        return null;
    }
}

package niolab.uring;

/** The three ways a ring can receive, one per server mode. */
enum RecvMode {
    /** One recv SQE per read, into the connection's own buffer. */
    SINGLE,
    /** Multishot recv; buffers given to the kernel with PROVIDE_BUFFERS SQEs. */
    MULTISHOT_PROVIDED,
    /** Multishot recv; buffers given back through a registered buffer ring. */
    MULTISHOT_BUFRING
}

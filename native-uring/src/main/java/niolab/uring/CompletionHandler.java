package niolab.uring;

/**
 * Receives completions from {@link CompletionQueue#forEach}: the three fields of a CQE as
 * primitives, so reading a completion allocates nothing. An event loop implements it itself.
 */
@FunctionalInterface
public interface CompletionHandler {
    /**
     * @param userData the SQE's user_data, passed back unchanged
     * @param res      the operation's result: a count or fd when ≥ 0, else -errno
     * @param flags    IORING_CQE_F_* (MORE, BUFFER with the buffer id in the upper 16 bits)
     */
    void onCompletion(long userData, int res, int flags);
}

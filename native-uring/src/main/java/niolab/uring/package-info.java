/**
 * io_uring through FFM, with no liburing: the three syscalls, the shared rings mapped with mmap,
 * SQE preparation for the calls a network server makes, completion reading without allocation,
 * provided-buffer rings, and the detection of what this kernel supports. No lab logic.
 *
 * <p>Start with {@link niolab.uring.UringSupport} (is io_uring usable, and with what), then
 * {@link niolab.uring.IoUring} (a ring), {@link niolab.uring.SubmissionQueue} and
 * {@link niolab.uring.CompletionQueue} (its two halves and their memory ordering),
 * {@link niolab.uring.BufferRing}. The struct layouts and constants mirror
 * {@code linux/io_uring.h} in {@link niolab.uring.IoUringStructs} and
 * {@link niolab.uring.IoUringConstants}. Every class needs JDK 22 (FFM); run with
 * {@code --enable-native-access=ALL-UNNAMED}.
 */
package niolab.uring;
